import type { ReactNode } from "react";
import { Alert } from "react-bootstrap";

/**
 * The error (or success) of a whole form. Focusable so that a failed submit can move focus to it
 * (lib/form-errors useFocusFirstError looks for data-form-error).
 */
export function FormAlert({ children, variant = "danger" }: { children: ReactNode; variant?: "danger" | "success" | "info" }) {
  if (!children) return null;
  return (
    <Alert
      variant={variant}
      role={variant === "danger" ? "alert" : "status"}
      tabIndex={-1}
      data-form-error={variant === "danger" ? "" : undefined}
    >
      {children}
    </Alert>
  );
}
