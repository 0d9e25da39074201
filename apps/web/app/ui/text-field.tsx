import type { ReactNode } from "react";
import { Form } from "react-bootstrap";
import { useAdoptedValue } from "../lib/prehydration";
import { describedByOf, FieldNotes } from "./field-notes";

export interface TextFieldProps {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  type?: "text" | "email" | "password" | "tel";
  /** Shown under the field and tied to it with aria-describedby. */
  hint?: ReactNode;
  /** The field's error: marks it invalid (aria-invalid) and is tied to it with aria-describedby. */
  error?: ReactNode;
  autoComplete?: string;
  maxLength?: number;
  required?: boolean;
  /** A textarea with this many rows instead of an input. */
  rows?: number;
  onBlur?: () => void;
  inputMode?: "email" | "text" | "tel" | "numeric";
  className?: string;
  /** More content under the field (a suggestion, a link). */
  children?: ReactNode;
}

/** A labelled input with its hint and error, the way every form of the site shows them. */
export function TextField({
  id,
  label,
  value,
  onChange,
  type = "text",
  hint,
  error,
  autoComplete,
  maxLength,
  required,
  rows,
  onBlur,
  inputMode,
  className = "mb-3",
  children,
}: TextFieldProps) {
  const control = useAdoptedValue<HTMLInputElement & HTMLTextAreaElement>(value, onChange);
  const describedBy = describedByOf({ id, hint, error });
  return (
    <Form.Group controlId={id} className={className}>
      <Form.Label>{label}</Form.Label>
      {rows ? (
        <Form.Control
          ref={control}
          as="textarea"
          rows={rows}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          isInvalid={!!error}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          aria-required={required ? true : undefined}
          maxLength={maxLength}
        />
      ) : (
        <Form.Control
          ref={control}
          type={type}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          isInvalid={!!error}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          aria-required={required ? true : undefined}
          autoComplete={autoComplete}
          maxLength={maxLength}
          inputMode={inputMode}
        />
      )}
      <FieldNotes id={id} hint={hint} error={error} />
      {children}
    </Form.Group>
  );
}
