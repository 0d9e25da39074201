import { LIMITS } from "@app/contract";
import { Button, Modal } from "react-bootstrap";
import { FormattedMessage } from "react-intl";
import { Link } from "react-router";
import { HmsTimer } from "./time-left";

/** Spec §9: "the modal urges action fast with a 4 value": the bonus's window in hours (14400 s). */
const WINDOW_HOURS = LIMITS.timeBonusSeconds / 3600;

/** The time-bonus popup itself (time-bonus-modal.tsx decides when it shows and loads this module then). */
export function TimeBonusDialog({
  show,
  onDismiss,
  percentage,
  secondsLeft,
  closeLabel,
}: {
  show: boolean;
  onDismiss: () => void;
  percentage: number;
  secondsLeft: number | null;
  closeLabel: string;
}) {
  return (
    <Modal show={show} onHide={onDismiss} centered aria-labelledby="time-bonus-title">
      <Modal.Header closeButton closeLabel={closeLabel}>
        <Modal.Title id="time-bonus-title" as="h2" className="h5">
          <FormattedMessage id="discounts.modal_title" values={{ percentage, hours: WINDOW_HOURS }} />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          <FormattedMessage id="discounts.modal_body" values={{ percentage, hours: WINDOW_HOURS }} />
        </p>
        {secondsLeft != null ? (
          <p className="mb-0 fs-5">
            <FormattedMessage id="discounts.modal_ends" values={{ countdown: <HmsTimer seconds={secondsLeft} /> }} />
          </p>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onDismiss}>
          <FormattedMessage id="discounts.modal_later" />
        </Button>
        <Link to="/credits" className="btn btn-primary" onClick={onDismiss}>
          <FormattedMessage id="discounts.modal_cta" values={{ percentage }} />
        </Link>
      </Modal.Footer>
    </Modal>
  );
}
