import type { BlockedMember } from "@app/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, Spinner } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { errorMessage } from "../../lib/form-errors";
import { FormAlert } from "../../ui/form-alert";
import { SettingsSection } from "../../ui/settings-section";
import { blockedMembersQuery, unblockMember } from "./api";

/** Settings: the members one blocked, each with an unblock button (spec §6). */
export function BlockedMembersSettings() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const blocked = useQuery(blockedMembersQuery);
  const [busy, setBusy] = useState<number | null>(null);
  const [unblockError, setUnblockError] = useState("");
  const [unblocked, setUnblocked] = useState("");
  // A list that failed to load shows as empty, with the error above it.
  const members = blocked.data ?? (blocked.isError ? [] : null);
  const error = unblockError || (blocked.isError ? errorMessage(blocked.error, intl) : "");

  const unblock = async (member: BlockedMember) => {
    setBusy(member.id);
    setUnblockError("");
    try {
      await unblockMember(member.id);
      queryClient.setQueryData(blockedMembersQuery.queryKey, (list) => (list ?? []).filter((m) => m.id !== member.id));
      setUnblocked(member.name);
    } catch (caught) {
      setUnblockError(errorMessage(caught, intl));
    }
    setBusy(null);
  };

  return (
    <SettingsSection name="blocked" titleId="block.settings_title">
      <p>
        <FormattedMessage id="block.settings_body" />
      </p>
      <FormAlert>{error}</FormAlert>
      {members === null ? (
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">
            <FormattedMessage id="profile.loading" />
          </span>
        </Spinner>
      ) : members.length === 0 ? (
        <p className="text-body-secondary mb-0">
          <FormattedMessage id="block.settings_empty" />
        </p>
      ) : (
        <ul className="list-group">
          {members.map((member) => (
            <li key={member.id} className="list-group-item d-flex flex-wrap align-items-center gap-2">
              <span className="flex-grow-1">
                <Link to={`/members/${member.id}`}>{member.name}</Link>
                <span className="d-block small text-body-secondary">
                  <FormattedMessage
                    id="block.settings_since"
                    values={{ date: intl.formatDate(new Date(member.blocked_at), { dateStyle: "medium" }) }}
                  />
                </span>
              </span>
              <Button variant="outline-secondary" size="sm" onClick={() => unblock(member)} disabled={busy !== null}>
                {busy === member.id ? (
                  <Spinner as="span" animation="border" size="sm" className="me-1" aria-hidden="true" />
                ) : null}
                <FormattedMessage id="block.unblock" values={{ name: member.name }} />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div role="status" className="small mt-2">
        {unblocked ? <FormattedMessage id="block.unblocked" values={{ name: unblocked }} /> : null}
      </div>
    </SettingsSection>
  );
}
