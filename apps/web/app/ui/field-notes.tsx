import type { ReactNode } from "react";
import { Form } from "react-bootstrap";

export interface FieldNotesProps {
  /** The field's id: the hint is `${id}-hint`, the error `${id}-error`. */
  id: string;
  hint?: ReactNode;
  error?: ReactNode;
  hintClassName?: string;
}

/** The ids a field's aria-describedby lists: `more` (text of its group), then its hint and its error. */
export function describedByOf({ id, hint, error }: FieldNotesProps, more?: string): string | undefined {
  return [more, hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

/** The hint and the error under a field (TextField, SelectField), with the ids describedByOf names. */
export function FieldNotes({ id, hint, error, hintClassName }: FieldNotesProps) {
  return (
    <>
      {hint ? (
        <Form.Text id={`${id}-hint`} muted className={hintClassName}>
          {hint}
        </Form.Text>
      ) : null}
      {error ? (
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      ) : null}
    </>
  );
}
