import { Button, Modal } from "react-bootstrap";
import { FormattedMessage } from "react-intl";

/** The site-entry warning's dialog (entry-warning.tsx decides when it shows). */
export default function EntryWarningModal({ show, siteName, onEnter }: { show: boolean; siteName: string; onEnter: () => void }) {
  return (
    <Modal
      show={show}
      id="site-entry-warning"
      backdrop="static"
      keyboard={false}
      centered
      aria-labelledby="site-entry-warning-title"
    >
      <Modal.Header>
        <Modal.Title id="site-entry-warning-title">
          <FormattedMessage id="entry.title" />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">
          <FormattedMessage id="entry.body" values={{ site: siteName }} />
        </p>
      </Modal.Body>
      <Modal.Footer>
        <a className="btn btn-outline-secondary" href="https://www.google.com/" rel="noreferrer">
          <FormattedMessage id="entry.leave" />
        </a>
        <Button variant="primary" onClick={onEnter} autoFocus>
          <FormattedMessage id="entry.enter" />
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
