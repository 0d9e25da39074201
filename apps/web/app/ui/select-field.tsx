import type { ReactNode } from "react";
import { Form } from "react-bootstrap";
import { useAdoptedValue } from "../lib/prehydration";
import { describedByOf, FieldNotes } from "./field-notes";

export interface SelectOption {
  value: string;
  label: string;
  /** The language of the label, when it differs from the page's (a language's own name). */
  lang?: string;
}

export interface SelectFieldProps {
  id: string;
  label: ReactNode;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  /** The label of the empty choice ("Not specified", "Any"); none when the field must have a value. */
  blank?: string;
  /** Shown under the field and tied to it with aria-describedby. */
  hint?: ReactNode;
  /** The field's error: marks it invalid (aria-invalid) and is tied to it with aria-describedby. */
  error?: ReactNode;
  /** Marks the field invalid when its error is shown elsewhere (a group of selects with one message). */
  invalid?: boolean;
  /** Ids of more text that describes the field (a hint or error of its group). */
  describedBy?: string;
  name?: string;
  disabled?: boolean;
  autoComplete?: string;
  /** Classes of the group around label and field. */
  className?: string;
  labelClassName?: string;
  /** A label for screen readers only (the group's legend says the rest). */
  labelHidden?: boolean;
}

/** A labelled select with its hint and error, the way every form of the site shows them. */
export function SelectField({
  id,
  label,
  value,
  options,
  onChange,
  blank,
  hint,
  error,
  invalid = Boolean(error),
  describedBy,
  name,
  disabled,
  autoComplete,
  className = "mb-3",
  labelClassName,
  labelHidden,
}: SelectFieldProps) {
  const ref = useAdoptedValue<HTMLSelectElement>(value, onChange);
  return (
    <Form.Group controlId={id} className={className}>
      <Form.Label className={labelClassName} visuallyHidden={labelHidden}>
        {label}
      </Form.Label>
      <Form.Select
        ref={ref}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        isInvalid={invalid}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedByOf({ id, hint, error }, describedBy)}
        autoComplete={autoComplete}
      >
        {blank !== undefined ? <option value="">{blank}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </Form.Select>
      <FieldNotes id={id} hint={hint} error={error} hintClassName="small" />
    </Form.Group>
  );
}
