import { Button, Modal } from "react-bootstrap";
import { FormattedMessage } from "react-intl";
import { ResendActivationButton } from "./signup-steps";

/** The account-activation reminder as a modal (on a phone, right after signup; account-alerts.tsx). */
export function ActivationModal({ email, onClose, closeLabel }: { email: string; onClose: () => void; closeLabel: string }) {
  return (
    <Modal show onHide={onClose} centered aria-labelledby="activation-reminder-title">
      <Modal.Header closeButton closeLabel={closeLabel}>
        <Modal.Title id="activation-reminder-title">
          <FormattedMessage id="alerts.activation_title" />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          <FormattedMessage id="alerts.activation_body" values={{ email, strong: (c) => <strong>{c}</strong> }} />
        </p>
        <ResendActivationButton />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onClose}>
          <FormattedMessage id="alerts.ok" />
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
