import { safeReturnPath } from "./safe-urls";

/**
 * What the payment pages remember in this tab (sessionStorage) across the provider's checkout page,
 * which the browser leaves the site for: where to go back after paying. Storage may be unavailable
 * (private modes, blocked cookies): then nothing is remembered.
 */
const RETURN_KEY = "amoria-payments-return";

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

/**
 * `?return=…` for a link between the payment pages (/credits → /credits/{id} → back to /credits), so that
 * the page to go back to after paying (a chat) stays in the URL and is not lost on the way (issue #29);
 * "" when there is none or it is not a path of this site.
 */
export function returnQuery(path: string | null | undefined): string {
  const safe = safeReturnPath(path);
  return safe ? `?return=${encodeURIComponent(safe)}` : "";
}
