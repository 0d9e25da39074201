import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { useIntl } from "react-intl";
import { ApiCallError } from "../../lib/api";
import { errorMessage } from "../../lib/form-errors";

/** A try that got no answer or was not processed: the payment may exist, so a retry must use the same client_id. */
export function isTransientError(error: unknown): boolean {
  if (!(error instanceof ApiCallError)) return false;
  return error.status === 0 || error.status === 408 || error.status >= 500;
}

export interface PaymentAttempt {
  /** A call is on its way, or it succeeded and the page is leaving. */
  busy: boolean;
  /** The failed call's message (translated by the server), or "". */
  error: string;
  /** The failed call itself (its `code` decides what else the page offers), or null. */
  failure: unknown;
  /** Attach to the form: after a failure, focus moves to its error alert (ui/form-alert). */
  formRef: RefObject<HTMLFormElement | null>;
  /**
   * Runs `call` with the client_id of the purchase attempt named `key` (a bundle and method): the same
   * id for every try of that attempt, so that a double click or a retry after a lost answer is one
   * payment on the server. One call at a time; after a success the page stays busy (it is leaving).
   */
  run(key: string, call: (clientId: string) => Promise<void>): Promise<void>;
}

/** One purchase attempt at a time, with its client_id kept across retries (issue #11: no double payments). */
export function usePaymentAttempt(newClientId: () => string = () => crypto.randomUUID()): PaymentAttempt {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  const busyNow = useRef(false);
  const [failure, setFailure] = useState<unknown>(null);
  const attempt = useRef<{ key: string; clientId: string } | null>(null);
  const makeId = useRef(newClientId);
  makeId.current = newClientId;
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (failure !== null) formRef.current?.querySelector<HTMLElement>("[data-form-error]")?.focus();
  }, [failure]);

  // Back from the provider's page through the browser's cache: the page comes back as it was left, busy.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      busyNow.current = false;
      setBusy(false);
    };
    window.addEventListener("pageshow", restored);
    return () => window.removeEventListener("pageshow", restored);
  }, []);

  const run = useCallback(async (key: string, call: (clientId: string) => Promise<void>) => {
    if (busyNow.current) return;
    if (attempt.current?.key !== key) attempt.current = { key, clientId: makeId.current() };
    const { clientId } = attempt.current;
    busyNow.current = true;
    setBusy(true);
    setFailure(null);
    try {
      await call(clientId);
      attempt.current = null;
    } catch (caught) {
      // A refusal ends the attempt; after a lost answer the payment may exist, so the retry reuses the id.
      if (!isTransientError(caught)) attempt.current = null;
      busyNow.current = false;
      setBusy(false);
      setFailure(caught);
    }
  }, []);

  return { busy, error: failure === null ? "" : errorMessage(failure, intl), failure, formRef, run };
}
