import { type FormEvent, useCallback, useRef, useState } from "react";
import { useIntl } from "react-intl";
import { errorMessage, fieldErrors, useFocusFirstError } from "./form-errors";

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export interface ApiFormOptions<F extends string> {
  /** The fields of the form that the server may name in its `fields`. */
  fields: readonly F[];
  /** Error codes that belong to one field (the message then shows there, not above the form). */
  fieldOfCode?: Partial<Record<string, F>>;
  /** Told when a call starts and ends (a modal that cannot close meanwhile). */
  onBusyChange?: (busy: boolean) => void;
}

export interface SubmitOptions<F extends string> {
  /** Runs first, on every submit (clear a success message, a hint of the last answer). */
  before?: () => void;
  /** The client-side checks: messages by field. Any message stops the submit before the call. */
  validate?: () => FieldErrors<F>;
  /** Sees a failed call before it is shown (a code that changes the page, such as an expired link). */
  onFailure?: (error: unknown) => void;
  /** The success leaves the page: the form stays busy, so that it cannot be sent twice. */
  stayBusy?: boolean;
}

/**
 * The submit skeleton of the site's forms: checks, one call at a time (busy), the server's errors at
 * their fields or above the form (its translated message, decision 006), and focus on the first error.
 * Attach `formRef` to the form and use `handleSubmit(call, options)` as its onSubmit.
 */
export function useApiForm<F extends string>({ fields, fieldOfCode, onBusyChange }: ApiFormOptions<F>) {
  const intl = useIntl();
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [formError, setFormError] = useState("");
  const [busy, setBusyState] = useState(false);
  const busyNow = useRef(false);
  const [formRef, focusFirstError] = useFocusFirstError();

  const setBusy = (value: boolean) => {
    busyNow.current = value;
    setBusyState(value);
    onBusyChange?.(value);
  };

  const submit = async (call: () => Promise<void>, { before, validate, onFailure, stayBusy }: SubmitOptions<F>) => {
    if (busyNow.current) return;
    setFormError("");
    before?.();
    const problems = validate?.() ?? {};
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      focusFirstError();
      return;
    }
    setBusy(true);
    try {
      await call();
      if (!stayBusy) setBusy(false);
    } catch (caught) {
      setBusy(false);
      onFailure?.(caught);
      const byField = fieldErrors(caught, fields, fieldOfCode);
      setErrors(byField);
      if (Object.keys(byField).length === 0) setFormError(errorMessage(caught, intl));
      focusFirstError();
    }
  };

  const handleSubmit =
    (call: () => Promise<void>, options: SubmitOptions<F> = {}) =>
    (event: FormEvent) => {
      event.preventDefault();
      void submit(call, options);
    };

  /** Forgets the errors (a modal that closes). */
  const reset = useCallback(() => {
    setErrors({});
    setFormError("");
  }, []);

  /** Removes the errors of these fields (the member edited them; the next submit checks again). */
  const clearError = useCallback((...cleared: F[]) => {
    setErrors((current) =>
      cleared.some((field) => current[field])
        ? { ...current, ...Object.fromEntries(cleared.map((f) => [f, undefined])) }
        : current,
    );
  }, []);

  return { formRef, handleSubmit, busy, errors, formError, reset, clearError };
}
