import { useCallback, useEffect, useRef, useState } from "react";
import type { IntlShape } from "react-intl";
import { ApiCallError } from "./api";

/**
 * The text to show for a failed call: the server's translated message, a network hint when no answer
 * came, else the generic message.
 */
export function errorMessage(error: unknown, intl: IntlShape): string {
  if (error instanceof ApiCallError) {
    if (error.body?.message) return error.body.message;
    if (error.status === 0) return intl.formatMessage({ id: "error.network" });
  }
  return intl.formatMessage({ id: "error.try_later" });
}

export function errorCode(error: unknown): string {
  return error instanceof ApiCallError ? error.code : "internal";
}

/**
 * Per-field messages of a failed call: the server's `fields` when it named them, otherwise the
 * message placed on the field `byCode` assigns to the error code. Empty when the error belongs to no
 * field of this form (the form then shows it as a whole).
 */
export function fieldErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  byCode: Partial<Record<string, F>> = {},
): Partial<Record<F, string>> {
  if (!(error instanceof ApiCallError) || !error.body) return {};
  const result: Partial<Record<F, string>> = {};
  for (const [field, message] of Object.entries(error.body.fields ?? {})) {
    if ((fields as readonly string[]).includes(field)) result[field as F] = message;
  }
  if (Object.keys(result).length === 0) {
    const field = byCode[error.body.error];
    if (field) result[field] = error.body.message;
  }
  return result;
}

/**
 * After a failed submit, moves focus to the first invalid control of the form (aria-invalid) or, when
 * none, to its error alert. Call the returned `focusFirstError` on every submit that produced errors.
 */
export function useFocusFirstError() {
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (attempt === 0) return;
    const form = formRef.current;
    if (!form) return;
    const target = form.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-error]');
    target?.focus();
  }, [attempt]);
  const focusFirstError = useCallback(() => setAttempt((n) => n + 1), []);
  return [formRef, focusFirstError] as const;
}
