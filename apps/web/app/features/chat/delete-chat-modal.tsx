import { nameValues } from "@app/contract";
import { Button, Modal } from "react-bootstrap";
import { FormattedMessage } from "react-intl";

/**
 * The delete-conversation modal (spec §2): asks before a conversation leaves the list. Cancel has the
 * focus first (the harmless choice); Escape and the backdrop cancel.
 */
export function DeleteChatModal({
  name,
  show,
  onCancel,
  onConfirm,
  onExited,
}: {
  name: string;
  show: boolean;
  onCancel(): void;
  onConfirm(): void;
  /** Closed and gone: the caller places the focus (the button that opened it may be gone with its line). */
  onExited(): void;
}) {
  return (
    <Modal show={show} onHide={onCancel} onExited={onExited} restoreFocus={false} centered aria-labelledby="delete-chat-title">
      <Modal.Header closeButton>
        <Modal.Title id="delete-chat-title" as="h2" className="h5">
          <FormattedMessage id="chat.delete_title" />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">
          <FormattedMessage id="chat.delete_text" values={nameValues(name)} />
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} autoFocus>
          <FormattedMessage id="chat.delete_cancel" />
        </Button>
        <Button variant="danger" onClick={onConfirm}>
          <FormattedMessage id="chat.delete_confirm" />
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
