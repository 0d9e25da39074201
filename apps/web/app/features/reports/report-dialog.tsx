import { nameValues, REPORT_REASONS, REPORT_TEXT_MAX, type ReportReason } from "@app/contract";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Button, Form, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../lib/form-errors";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { sendReport } from "./api";

/** What is reported: a member's profile, or one message they sent. */
export type ReportTarget = { profile_id: number } | { message_id: number };

export interface ReportDialogProps {
  show: boolean;
  onHide(): void;
  /** After the report was stored (the caller says thank you). */
  onSent(): void;
  target: ReportTarget;
  /** The member concerned, for the title. */
  name: string;
}

/**
 * Report a profile or a message (issue #27): a reason from the list, optional words, sent to the
 * moderators' queue. The member concerned is not told who reported them.
 */
export function ReportDialog({ show, onHide, onSent, target, name }: ReportDialogProps) {
  const intl = useIntl();
  const id = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const isMessage = "message_id" in target;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason) {
      setError(intl.formatMessage({ id: "report.reason_required" }));
      return;
    }
    setBusy(true);
    setError("");
    try {
      await sendReport({ ...target, reason, ...(text.trim() ? { text } : {}) });
      setBusy(false);
      onSent();
    } catch (caught) {
      setBusy(false);
      setError(errorMessage(caught, intl));
    }
  };

  return (
    <Modal
      show={show}
      onHide={onHide}
      onExited={() => {
        setError("");
        setReason(null);
        setText("");
      }}
      backdrop={busy ? "static" : true}
      keyboard={!busy}
      aria-labelledby={`${id}-title`}
    >
      <Form onSubmit={submit} noValidate>
        <Modal.Header closeButton={!busy} closeLabel={intl.formatMessage({ id: "alerts.close" })}>
          <Modal.Title id={`${id}-title`}>
            <FormattedMessage id={isMessage ? "report.title_message" : "report.title_profile"} values={nameValues(name)} />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-body-secondary">
            <FormattedMessage id="report.intro" values={{ name }} />
          </p>
          <fieldset className="mb-3">
            <legend className="fs-6 fw-semibold">
              <FormattedMessage id="report.reason_legend" />
            </legend>
            {REPORT_REASONS.map((value) => (
              <Form.Check
                key={value}
                type="radio"
                id={`${id}-${value}`}
                name={`${id}-reason`}
                value={value}
                checked={reason === value}
                onChange={() => setReason(value)}
                label={intl.formatMessage({ id: `moderation.report_reason.${value}` })}
              />
            ))}
          </fieldset>
          <Form.Group controlId={`${id}-text`}>
            <Form.Label>
              <FormattedMessage id="report.text_label" />
            </Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              maxLength={REPORT_TEXT_MAX}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </Form.Group>
          <div className="mt-3">
            <FormAlert>{error}</FormAlert>
          </div>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            <FormattedMessage id="settings.cancel" />
          </Button>
          <BusyButton type="submit" variant="danger" busy={busy}>
            <FormattedMessage id="report.submit" />
          </BusyButton>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** A report dialog's state: open it, whether the report went, and the dialog to render. */
function useReport(target: ReportTarget, name: string): { open(): void; sent: boolean; dialog: ReactNode } {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  const dialog = (
    <ReportDialog
      show={open}
      onHide={() => setOpen(false)}
      onSent={() => {
        setOpen(false);
        setSent(true);
      }}
      target={target}
      name={name}
    />
  );
  return { open: () => setOpen(true), sent, dialog };
}

/** The profile view's Report action, beside Block (issue #27). */
export function ReportProfile({ profile }: { profile: { id: number; name: string } }) {
  const report = useReport({ profile_id: profile.id }, profile.name);
  return (
    <div className="mb-4">
      <Button variant="outline-dark" size="sm" onClick={report.open} disabled={report.sent}>
        <FormattedMessage id="report.profile_action" values={{ name: profile.name }} />
      </Button>
      <div role="status" className="small mt-2">
        {report.sent ? <FormattedMessage id="report.done" /> : null}
      </div>
      {report.dialog}
    </div>
  );
}

/**
 * The menu of a received chat message (issue #27): Report. A small disclosure button beside the time;
 * the report is confirmed in the message's own status line.
 */
export function ReportMessageMenu({ messageId, name }: { messageId: number; name: string }) {
  const intl = useIntl();
  const menuId = useId();
  const [menu, setMenu] = useState(false);
  const report = useReport({ message_id: messageId }, name);
  if (report.sent) {
    return (
      <span role="status" className="ms-2 chat-reported">
        <FormattedMessage id="report.message_done" />
      </span>
    );
  }
  return (
    <span className="chat-message-menu position-relative ms-1">
      <button
        type="button"
        className="btn btn-link btn-sm p-0 px-1 text-reset text-decoration-none"
        aria-label={intl.formatMessage({ id: "report.message_menu" })}
        aria-expanded={menu}
        aria-controls={menu ? menuId : undefined}
        onClick={() => setMenu((shown) => !shown)}
        onKeyDown={(event) => {
          if (event.key === "Escape") setMenu(false);
        }}
      >
        ⋯
      </button>
      {menu ? (
        <span
          id={menuId}
          className="chat-message-menu-list position-absolute bottom-100 start-0 bg-body border rounded shadow-sm p-1"
        >
          <button
            type="button"
            className="btn btn-sm btn-light text-danger text-nowrap"
            onClick={() => {
              setMenu(false);
              report.open();
            }}
          >
            <FormattedMessage id="report.message_action" />
          </button>
        </span>
      ) : null}
      {report.dialog}
    </span>
  );
}
