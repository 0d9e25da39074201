import { STAFF_SUPPORT_ENDPOINTS, type SupportPayment } from "@app/contract";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Form, Modal } from "react-bootstrap";
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { errorMessage, fieldErrors } from "../../../lib/form-errors";
import { BusyButton } from "../../../ui/busy-button";
import { FormAlert } from "../../../ui/form-alert";
import { useStaffMutation } from "../api";
import { ReasonField } from "./reason-field";

/** What a support write changes: the member's dossier and its audit log load again. */
const DOSSIER = ["/staff/api/support/members", "/staff/api/audit"];

/**
 * Adds or takes credits with a reason (kept in the audit log). The dialog's key makes a double click
 * or a retried request correct once; a new opening is a new correction.
 */
export function CorrectionDialog(props: {
  userId: number;
  balance: number;
  show: boolean;
  onHide: () => void;
  onDone: (balance: number) => void;
}) {
  const { userId, balance, show, onHide, onDone } = props;
  const intl = useIntl();
  const correct = useStaffMutation(STAFF_SUPPORT_ENDPOINTS.correctCredits, DOSSIER);
  const [delta, setDelta] = useState("");
  const [reason, setReason] = useState("");
  const [key, setKey] = useState(() => crypto.randomUUID());
  const amount = useRef<HTMLInputElement>(null);
  const reset = correct.reset;
  useEffect(() => {
    if (!show) return;
    setDelta("");
    setReason("");
    setKey(crypto.randomUUID());
    reset();
  }, [show, reset]);
  const number = Number(delta);
  const valid = delta.trim() !== "" && Number.isInteger(number) && number !== 0;
  const fields = fieldErrors(correct.error, ["delta", "reason"] as const, { correction_below_zero: "delta" });
  const whole = correct.error && Object.keys(fields).length === 0 ? errorMessage(correct.error, intl) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) {
      amount.current?.focus();
      return;
    }
    correct.mutate(
      { params: { userId }, body: { delta: number, reason, key } },
      { onSuccess: (answer) => onDone(answer.balance) },
    );
  };
  return (
    <Modal show={show} onHide={onHide} onEntered={() => amount.current?.focus()} aria-labelledby="correction-title" centered>
      <Form onSubmit={submit} noValidate>
        <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "staff.support.dialog.close" })}>
          <Modal.Title id="correction-title">
            <FormattedMessage id="staff.support.correct.title" />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {whole ? <FormAlert>{whole}</FormAlert> : null}
          <p>
            <FormattedMessage id="staff.support.correct.balance" values={{ balance }} />
          </p>
          <Form.Group controlId="correction-delta" className="mb-3">
            <Form.Label>
              <FormattedMessage id="staff.support.correct.delta" />
            </Form.Label>
            <Form.Control
              ref={amount}
              inputMode="numeric"
              value={delta}
              onChange={(event) => setDelta(event.target.value.replace(/[^\d-]/g, ""))}
              isInvalid={!!fields.delta || (delta !== "" && !valid)}
              aria-invalid={fields.delta || (delta !== "" && !valid) ? true : undefined}
              aria-describedby="correction-delta-hint correction-delta-error"
              required
            />
            <Form.Text id="correction-delta-hint">
              <FormattedMessage id="staff.support.correct.delta_hint" />
            </Form.Text>
            <Form.Control.Feedback type="invalid" id="correction-delta-error">
              {fields.delta ??
                (delta !== "" && !valid ? intl.formatMessage({ id: "staff.support.correct.delta_invalid" }) : null)}
            </Form.Control.Feedback>
          </Form.Group>
          <ReasonField id="correction-reason" value={reason} onChange={setReason} error={fields.reason} />
          {valid ? (
            <p className="mb-0">
              <FormattedMessage id="staff.support.correct.after" values={{ balance: Math.max(0, balance + number) }} />
            </p>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <BusyButton variant="outline-secondary" type="button" busy={false} onClick={onHide}>
            <FormattedMessage id="staff.support.dialog.cancel" />
          </BusyButton>
          <BusyButton type="submit" busy={correct.isPending}>
            <FormattedMessage id="staff.support.correct.submit" />
          </BusyButton>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/**
 * Refunds a payment at the provider with a reason. The credits it bought are taken back as far as the
 * balance goes (never below zero); what was spent stays spent, and the dialog says so before and after.
 */
export function RefundDialog(props: { payment: SupportPayment | null; balance: number; onHide: () => void }) {
  const { payment, balance, onHide } = props;
  const intl = useIntl();
  const refund = useStaffMutation(STAFF_SUPPORT_ENDPOINTS.refund, DOSSIER);
  const [reason, setReason] = useState("");
  const reasonRef = useRef<HTMLDivElement>(null);
  const reset = refund.reset;
  useEffect(() => {
    if (!payment) return;
    setReason("");
    reset();
  }, [payment, reset]);
  const outstanding = payment ? payment.credits - payment.reversed_credits : 0;
  const takes = Math.min(balance, outstanding);
  const fields = fieldErrors(refund.error, ["reason"] as const);
  const whole = refund.error && Object.keys(fields).length === 0 ? errorMessage(refund.error, intl) : null;
  const done = refund.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (payment) refund.mutate({ params: { paymentId: payment.payment_id }, body: { reason } });
  };
  return (
    <Modal
      show={payment !== null}
      onHide={onHide}
      onEntered={() => reasonRef.current?.querySelector("textarea")?.focus()}
      aria-labelledby="refund-title"
      centered
    >
      <Form onSubmit={submit} noValidate>
        <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "staff.support.dialog.close" })}>
          <Modal.Title id="refund-title">
            <FormattedMessage id="staff.support.refund.title" values={{ id: payment?.payment_id ?? 0 }} />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {whole ? <FormAlert>{whole}</FormAlert> : null}
          {payment ? (
            <p>
              <FormattedMessage
                id="staff.support.refund.what"
                values={{
                  amount: <FormattedNumber value={payment.amount} style="currency" currency={payment.currency} />,
                  credits: payment.credits,
                }}
              />
            </p>
          ) : null}
          {done ? (
            <p role="status" className="alert alert-success">
              <FormattedMessage
                id={done.replayed ? "staff.support.refund.already" : "staff.support.refund.done"}
                values={{ taken: done.taken, spent: done.spent, balance: done.balance }}
              />
            </p>
          ) : (
            <>
              <p>
                <FormattedMessage id="staff.support.refund.takes" values={{ taken: takes, spent: outstanding - takes }} />
              </p>
              <div ref={reasonRef}>
                <ReasonField id="refund-reason" value={reason} onChange={setReason} error={fields.reason} />
              </div>
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <BusyButton variant="outline-secondary" type="button" busy={false} onClick={onHide}>
            <FormattedMessage id={done ? "staff.support.dialog.close" : "staff.support.dialog.cancel"} />
          </BusyButton>
          {done ? null : (
            <BusyButton type="submit" variant="danger" busy={refund.isPending}>
              <FormattedMessage id="staff.support.refund.submit" />
            </BusyButton>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
