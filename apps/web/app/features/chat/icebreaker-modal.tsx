import { Button, ListGroup, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";

/** The suggested first lines (translated in every locale). */
export const ICEBREAKERS = [
  "chat.icebreaker_1",
  "chat.icebreaker_2",
  "chat.icebreaker_3",
  "chat.icebreaker_4",
  "chat.icebreaker_5",
  "chat.icebreaker_6",
] as const;

/**
 * The icebreaker modal (spec §2): for an empty conversation, a few first lines to start with; choosing
 * one puts it in the message field (the member may change it before sending).
 */
export function IcebreakerModal({
  name,
  show,
  onHide,
  onPick,
  onExited,
}: {
  name: string;
  show: boolean;
  onHide(): void;
  onPick(line: string): void;
  /** Closed and gone: the caller moves the focus (to the message field) instead of back to the opener. */
  onExited(): void;
}) {
  const intl = useIntl();
  return (
    <Modal show={show} onHide={onHide} onExited={onExited} restoreFocus={false} centered aria-labelledby="icebreaker-title">
      <Modal.Header closeButton>
        <Modal.Title id="icebreaker-title" as="h2" className="h5">
          <FormattedMessage id="chat.icebreaker_title" values={{ name }} />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="text-body-secondary">
          <FormattedMessage id="chat.icebreaker_intro" />
        </p>
        <ListGroup>
          {ICEBREAKERS.map((id) => {
            const line = intl.formatMessage({ id }, { name });
            return (
              <ListGroup.Item key={id} action as="button" type="button" onClick={() => onPick(line)}>
                {line}
              </ListGroup.Item>
            );
          })}
        </ListGroup>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide}>
          <FormattedMessage id="chat.icebreaker_close" />
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
