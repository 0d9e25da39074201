import type { BlockedMember } from "@app/contract";
import { useEffect, useState } from "react";
import { Button, Spinner } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { errorMessage } from "../../lib/form-errors";
import { FormAlert } from "../../ui/form-alert";
import { SettingsSection } from "../../ui/settings-section";
import { getBlockedMembers, unblockMember } from "./api";

/** Settings: the members one blocked, each with an unblock button (spec §6). */
export function BlockedMembersSettings() {
  const intl = useIntl();
  const [members, setMembers] = useState<BlockedMember[] | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState("");
  const [unblocked, setUnblocked] = useState("");

  useEffect(() => {
    let active = true;
    getBlockedMembers()
      .then((list) => active && setMembers(list))
      .catch((caught) => {
        if (!active) return;
        setMembers([]);
        setError(errorMessage(caught, intl));
      });
    return () => {
      active = false;
    };
  }, [intl]);

  const unblock = async (member: BlockedMember) => {
    setBusy(member.id);
    setError("");
    try {
      await unblockMember(member.id);
      setMembers((list) => (list ?? []).filter((m) => m.id !== member.id));
      setUnblocked(member.name);
    } catch (caught) {
      setError(errorMessage(caught, intl));
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
