import type { MemberProfile } from "@app/contract";
import { useState } from "react";
import { Alert, Button, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../lib/form-errors";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { blockMember, unblockMember } from "./api";

export interface BlockActionsProps {
  /** The gender, where known, chooses the noun the Polish messages put before the name (użytkowniczkę / użytkownika). */
  profile: { id: number; name: string; gender?: MemberProfile["gender"] };
  /** Whether the member has blocked this profile already (GET /api/member.php's `blocked`). */
  blocked: boolean;
  /** After a change (the page reloads its data: related members, the action bar of other features). */
  onChange?: (blocked: boolean) => void;
}

/**
 * The profile view's block / unblock action (spec §2 action bar, §6 blocking). Blocking asks first in a
 * modal that says what it does; unblocking needs no confirmation.
 */
export function BlockActions({ profile, blocked: initiallyBlocked, onChange }: BlockActionsProps) {
  const intl = useIntl();
  const [blocked, setBlocked] = useState(initiallyBlocked);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState<"blocked" | "unblocked" | null>(null);

  const change = async (block: boolean) => {
    setBusy(true);
    setError("");
    try {
      const answer = block ? await blockMember(profile.id) : await unblockMember(profile.id);
      setBlocked(answer.blocked);
      setNotice(answer.blocked ? "blocked" : "unblocked");
      setOpen(false);
      onChange?.(answer.blocked);
    } catch (caught) {
      setError(errorMessage(caught, intl));
    }
    setBusy(false);
  };

  const values = { name: profile.name, gender: profile.gender ?? null };
  return (
    <div className="mb-4">
      {blocked ? (
        <Alert variant="secondary" className="d-flex flex-wrap align-items-center gap-3">
          <span className="flex-grow-1">
            <FormattedMessage id="block.is_blocked" values={values} />
          </span>
          <BusyButton variant="outline-dark" size="sm" onClick={() => change(false)} busy={busy}>
            <FormattedMessage id="block.unblock" values={values} />
          </BusyButton>
        </Alert>
      ) : (
        <Button variant="outline-dark" size="sm" onClick={() => setOpen(true)}>
          <FormattedMessage id="block.action" values={values} />
        </Button>
      )}
      {/* Announces the change; after a block the alert above already says it on screen. */}
      <div role="status" className={notice === "blocked" ? "visually-hidden" : "small mt-2"}>
        {notice === "unblocked" ? <FormattedMessage id="block.unblocked" values={values} /> : null}
        {notice === "blocked" ? <FormattedMessage id="block.done" values={values} /> : null}
      </div>
      {!open && error ? <FormAlert>{error}</FormAlert> : null}
      <Modal
        show={open}
        onHide={() => setOpen(false)}
        onExited={() => setError("")}
        backdrop={busy ? "static" : true}
        keyboard={!busy}
        aria-labelledby="block-member-title"
      >
        <Modal.Header closeButton={!busy} closeLabel={intl.formatMessage({ id: "alerts.close" })}>
          <Modal.Title id="block-member-title">
            <FormattedMessage id="block.confirm_title" values={values} />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="mb-2">
            <FormattedMessage id="block.confirm_body" values={values} />
          </p>
          <FormAlert>{error}</FormAlert>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setOpen(false)} disabled={busy}>
            <FormattedMessage id="settings.cancel" />
          </Button>
          <BusyButton variant="danger" onClick={() => change(true)} busy={busy}>
            <FormattedMessage id="block.confirm" values={values} />
          </BusyButton>
        </Modal.Footer>
      </Modal>
    </div>
  );
}
