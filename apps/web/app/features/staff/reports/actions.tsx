import { BAN_REASONS, STAFF_REPORTS_ENDPOINTS as E, type QueueItemView } from "@app/contract";
import { type FormEvent, useState } from "react";
import { Button, Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../../lib/form-errors";
import { BusyButton } from "../../../ui/busy-button";
import { FormAlert } from "../../../ui/form-alert";
import { useStaffMutation } from "../api";

/** Which form of an item is open: none, a ban, a dismissal, an answer, a closing. */
export type ActionForm = "ban" | "dismiss" | "answer" | "close" | null;

const QUEUE = ["/staff/api/reports", "/staff/api/complaints", "/staff/api/members"];

/** The forms of the selected item's actions (issue #27); each write is audited on the server. */
export function ActionForms({ item, form, onDone }: { item: QueueItemView; form: ActionForm; onDone(): void }) {
  if (form === "ban" && item.kind === "report") return <BanForm item={item} onDone={onDone} />;
  if (form === "dismiss" && item.kind === "report") return <ResolutionForm item={item} kind="dismiss" onDone={onDone} />;
  if (form === "close" && item.kind === "complaint") return <ResolutionForm item={item} kind="close" onDone={onDone} />;
  if (form === "answer" && item.kind === "complaint") return <AnswerForm item={item} onDone={onDone} />;
  return null;
}

function useSubmit(onDone: () => void) {
  const intl = useIntl();
  const [error, setError] = useState("");
  const run = async (call: () => Promise<unknown>) => {
    setError("");
    try {
      await call();
      onDone();
    } catch (caught) {
      setError(errorMessage(caught, intl));
    }
  };
  return { error, run };
}

function BanForm({ item, onDone }: { item: Extract<QueueItemView, { kind: "report" }>; onDone(): void }) {
  const intl = useIntl();
  const ban = useStaffMutation(E.reportBan, QUEUE);
  const { error, run } = useSubmit(onDone);
  const [reason, setReason] = useState<(typeof BAN_REASONS)[number]>(
    (BAN_REASONS as readonly string[]).includes(item.reason) ? (item.reason as (typeof BAN_REASONS)[number]) : "terms_violation",
  );
  const [ends, setEnds] = useState("");
  const [note, setNote] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() =>
      ban.mutateAsync({
        params: { id: item.id },
        body: { reason, ends_at: ends ? new Date(ends).toISOString() : null, note },
      }),
    );
  };
  return (
    <Form onSubmit={submit} className="border rounded p-3 mt-3" aria-labelledby="ban-form-title">
      <h3 id="ban-form-title" className="h6">
        <FormattedMessage id="staff.reports.ban_title" />
      </h3>
      <Form.Group controlId="ban-reason" className="mb-2">
        <Form.Label>
          <FormattedMessage id="staff.reports.ban_reason" />
        </Form.Label>
        <Form.Select value={reason} onChange={(e) => setReason(e.target.value as typeof reason)} autoFocus>
          {BAN_REASONS.map((value) => (
            <option key={value} value={value}>
              {intl.formatMessage({ id: `moderation.ban_reason.${value}` })}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group controlId="ban-ends" className="mb-2">
        <Form.Label>
          <FormattedMessage id="staff.reports.ban_ends" />
        </Form.Label>
        <Form.Control type="datetime-local" value={ends} onChange={(e) => setEnds(e.target.value)} />
        <Form.Text>
          <FormattedMessage id="staff.reports.ban_ends_hint" />
        </Form.Text>
      </Form.Group>
      <Form.Group controlId="ban-note" className="mb-2">
        <Form.Label>
          <FormattedMessage id="staff.reports.ban_note" />
        </Form.Label>
        <Form.Control as="textarea" rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
      </Form.Group>
      <FormFooter error={error} busy={ban.isPending} variant="danger" label={"staff.reports.ban_submit"} onCancel={onDone} />
    </Form>
  );
}

function ResolutionForm({ item, kind, onDone }: { item: QueueItemView; kind: "dismiss" | "close"; onDone(): void }) {
  const dismiss = useStaffMutation(E.reportDismiss, QUEUE);
  const close = useStaffMutation(E.complaintClose, QUEUE);
  const { error, run } = useSubmit(onDone);
  const [resolution, setResolution] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { params: { id: item.id }, body: { resolution } };
    void run(() => (kind === "dismiss" ? dismiss.mutateAsync(input) : close.mutateAsync(input)));
  };
  return (
    <Form onSubmit={submit} className="border rounded p-3 mt-3">
      <Form.Group controlId="resolution" className="mb-2">
        <Form.Label>
          <FormattedMessage id={kind === "dismiss" ? "staff.reports.dismiss_label" : "staff.reports.close_label"} />
        </Form.Label>
        <Form.Control
          as="textarea"
          rows={2}
          value={resolution}
          onChange={(e) => setResolution(e.target.value)}
          autoFocus
          required
        />
      </Form.Group>
      <FormFooter
        error={error}
        busy={dismiss.isPending || close.isPending}
        variant="primary"
        label={kind === "dismiss" ? "staff.reports.dismiss_submit" : "staff.reports.close_submit"}
        onCancel={onDone}
      />
    </Form>
  );
}

function AnswerForm({ item, onDone }: { item: Extract<QueueItemView, { kind: "complaint" }>; onDone(): void }) {
  const intl = useIntl();
  const answer = useStaffMutation(E.complaintAnswer, QUEUE);
  const { error, run } = useSubmit(onDone);
  const [text, setText] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => answer.mutateAsync({ params: { id: item.id }, body: { text } }));
  };
  const language = intl.formatDisplayName(item.locale, { type: "language" }) ?? item.locale;
  return (
    <Form onSubmit={submit} className="border rounded p-3 mt-3">
      <Form.Group controlId="answer-text" className="mb-2">
        <Form.Label>
          <FormattedMessage id="staff.reports.answer_label" values={{ email: item.email }} />
        </Form.Label>
        <Form.Control as="textarea" rows={5} value={text} onChange={(e) => setText(e.target.value)} autoFocus />
        <Form.Text>
          <FormattedMessage id="staff.reports.answer_hint" values={{ language }} />
        </Form.Text>
      </Form.Group>
      <FormFooter
        error={error}
        busy={answer.isPending}
        variant="primary"
        label={"staff.reports.answer_submit"}
        onCancel={onDone}
      />
    </Form>
  );
}

/** A form's error, its submit button and Cancel. */
function FormFooter(props: { error: string; busy: boolean; variant: string; label: string; onCancel(): void }) {
  return (
    <>
      <FormAlert>{props.error}</FormAlert>
      <div className="d-flex gap-2">
        <BusyButton type="submit" variant={props.variant} busy={props.busy}>
          <FormattedMessage id={props.label} />
        </BusyButton>
        <Button variant="outline-dark" onClick={props.onCancel}>
          <FormattedMessage id="settings.cancel" />
        </Button>
      </div>
    </>
  );
}
