import { Button, type ButtonProps, Spinner } from "react-bootstrap";

/** A button that is disabled and shows a spinner while its action runs. */
export function BusyButton({ busy, disabled, children, ...props }: ButtonProps & { busy: boolean }) {
  return (
    <Button {...props} disabled={busy || disabled}>
      {busy ? <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" /> : null}
      {children}
    </Button>
  );
}
