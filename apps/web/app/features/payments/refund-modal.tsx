import { Button, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";

/**
 * Asks before an order is returned (spec §1 "{refund_days} day free returns"). "Keep the order" has
 * the focus first (the harmless choice); Escape and the backdrop keep it too, except while the return
 * is on its way. The caller places the focus when it has closed (the button that opened it goes away).
 */
export function RefundModal({
  show,
  amount,
  credits,
  busy,
  error,
  onCancel,
  onConfirm,
  onExited,
}: {
  show: boolean;
  amount: string;
  credits: number;
  busy: boolean;
  error: string;
  onCancel(): void;
  onConfirm(): void;
  onExited(): void;
}) {
  const intl = useIntl();
  return (
    <Modal
      show={show}
      onHide={busy ? () => {} : onCancel}
      onExited={onExited}
      restoreFocus={false}
      backdrop={busy ? "static" : true}
      keyboard={!busy}
      centered
      aria-labelledby="refund-title"
    >
      <Modal.Header closeButton={!busy} closeLabel={intl.formatMessage({ id: "toast.close" })}>
        <Modal.Title id="refund-title" as="h2" className="h5">
          <FormattedMessage id="payments.refund_title" />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <FormAlert>{error}</FormAlert>
        <p className="mb-0">
          <FormattedMessage id="payments.refund_text" values={{ amount, credits }} />
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy} autoFocus>
          <FormattedMessage id="payments.refund_cancel" />
        </Button>
        <BusyButton variant="danger" onClick={onConfirm} busy={busy}>
          <FormattedMessage id="payments.refund_confirm" />
        </BusyButton>
      </Modal.Footer>
    </Modal>
  );
}
