import type { ReactNode } from "react";
import { Alert, Button, Spinner } from "react-bootstrap";

/** What a part of the page says while its data loads in the browser (a query's pending state). */
export function Loading({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="d-flex align-items-center gap-2 py-3 text-body-secondary">
      <Spinner animation="border" size="sm" aria-hidden="true" />
      {children}
    </div>
  );
}

/** Its data could not be loaded: the message and a button to try again. */
export function LoadFailed({ message, retry, onRetry }: { message: string; retry: ReactNode; onRetry: () => void }) {
  return (
    <Alert variant="danger" role="alert">
      <p>{message}</p>
      <Button variant="outline-danger" size="sm" onClick={onRetry}>
        {retry}
      </Button>
    </Alert>
  );
}
