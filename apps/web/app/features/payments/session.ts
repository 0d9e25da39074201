import { safeReturnPath } from "./safe-urls";

/**
 * What the payment pages remember in this tab (sessionStorage) across the provider's checkout page,
 * which the browser leaves the site for: where to go back after paying, and which payments were repeat
 * orders. Storage may be unavailable (private modes, blocked cookies): then nothing is remembered.
 */
const RETURN_KEY = "amoria-payments-return";
const REPEAT_KEY = "amoria-payments-repeat";

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

function read(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    // Full or blocked storage: the page then offers the default way on.
  }
}

/** Remembers where to go back after paying (the `?return=` of /credits), or forgets it (null). */
export function storeReturnPath(path: string | null): void {
  write(RETURN_KEY, safeReturnPath(path));
}

export function readReturnPath(): string | null {
  return safeReturnPath(read(RETURN_KEY));
}

/** Notes that a payment was a repeat order (the result page then offers the card retry and PayPal). */
export function markRepeatPayment(paymentId: number): void {
  const ids = repeatPayments();
  if (!ids.includes(paymentId)) write(REPEAT_KEY, JSON.stringify([...ids, paymentId].slice(-20)));
}

export function isRepeatPayment(paymentId: number): boolean {
  return repeatPayments().includes(paymentId);
}

function repeatPayments(): number[] {
  try {
    const parsed: unknown = JSON.parse(read(REPEAT_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}
