import { useState } from "react";
import { Button, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import {
  DateOfBirthHint,
  DateOfBirthPicker,
  type DateParts,
  dateOfBirthDescribedBy,
  validDateOfBirth,
} from "./date-of-birth-picker";

export interface DateOfBirthFieldProps {
  id: string;
  value: DateParts;
  onChange: (value: DateParts) => void;
  /** The form's message for the field, e.g. "Invalid date of birth." */
  error?: string;
  today?: Date;
}

/**
 * The date of birth in a form, chosen in the date-of-birth picker modal of spec §2: a button showing
 * the chosen date (or asking for one) opens a dialog with day, month and year; "Done" takes the date
 * only when it is valid (spec §5: it exists and the age is 18 or more), "Cancel", Escape or the close
 * button keep the previous one. The dialog stacks over the signup modal, and focus returns to the
 * button when it closes.
 */
export function DateOfBirthField({ id, value, onChange, error, today = new Date() }: DateOfBirthFieldProps) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(value);
  const [draftError, setDraftError] = useState("");
  const chosen = validDateOfBirth(value, today);

  const show = () => {
    setDraft(value);
    setDraftError("");
    setOpen(true);
  };
  const done = () => {
    if (!validDateOfBirth(draft, today)) {
      setDraftError(intl.formatMessage({ id: "dob.invalid" }));
      return;
    }
    onChange(draft);
    setOpen(false);
  };

  return (
    <div className="mb-3">
      <span id={`${id}-label`} className="form-label d-block">
        <FormattedMessage id="dob.label" />
      </span>
      <button
        type="button"
        id={id}
        className={`form-control text-start${chosen ? "" : " text-body-secondary"}${error ? " is-invalid" : ""}`}
        aria-haspopup="dialog"
        aria-labelledby={`${id}-label ${id}`}
        aria-describedby={dateOfBirthDescribedBy(id, error)}
        data-form-error={error ? true : undefined}
        onClick={show}
      >
        {chosen ? (
          intl.formatDate(new Date(`${chosen}T00:00:00Z`), { dateStyle: "long", timeZone: "UTC" })
        ) : (
          <FormattedMessage id="dob.choose" />
        )}
      </button>
      <DateOfBirthHint id={id} error={error} />
      <Modal
        show={open}
        onHide={() => setOpen(false)}
        aria-labelledby={`${id}-modal-title`}
        centered
        className="modal-stacked"
        backdropClassName="modal-stacked-backdrop"
      >
        <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "alerts.close" })}>
          <Modal.Title id={`${id}-modal-title`} as="h2" className="h5">
            <FormattedMessage id="dob.label" />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <DateOfBirthPicker
            id={`${id}-picker`}
            value={draft}
            onChange={(parts) => {
              setDraft(parts);
              setDraftError("");
            }}
            error={draftError || undefined}
            today={today}
            legendHidden
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="link" onClick={() => setOpen(false)}>
            <FormattedMessage id="dob.cancel" />
          </Button>
          <Button variant="primary" onClick={done}>
            <FormattedMessage id="dob.done" />
          </Button>
        </Modal.Footer>
      </Modal>
    </div>
  );
}
