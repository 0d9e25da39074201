import type { ReactNode } from "react";
import { Button, Modal } from "react-bootstrap";
import { FormattedMessage } from "react-intl";
import { BusyButton } from "../../ui/busy-button";

/** A console write that cannot be undone, asked once more: what it does, Cancel, and the write's own button. */
export function ConfirmDialog({
  id,
  show,
  title,
  confirm,
  busy,
  onConfirm,
  onCancel,
  children,
}: {
  /** The dialog title's id (its accessible name). */
  id: string;
  show: boolean;
  title: ReactNode;
  confirm: ReactNode;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Modal show={show} onHide={onCancel} aria-labelledby={id} centered>
      <Modal.Header closeButton>
        <Modal.Title id={id}>{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-dark" onClick={onCancel}>
          <FormattedMessage id="staff.confirm.cancel" />
        </Button>
        <BusyButton variant="danger" busy={busy} onClick={onConfirm}>
          {confirm}
        </BusyButton>
      </Modal.Footer>
    </Modal>
  );
}
