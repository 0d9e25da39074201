/**
 * A path on this site to go back to (`/chats/12`), or null. Anything else (another origin, `//host`,
 * a backslash trick, a `javascript:` URL) is refused, so that `?return=` cannot send a member away.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > 500) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  if ([...value].some((char) => char.charCodeAt(0) < 0x20)) return null;
  return value;
}

/**
 * The provider's checkout page as the server named it, when it is a web address (or a path of this
 * site, the embedded sandbox's): anything else is never followed.
 */
export function safeCheckoutUrl(value: string | null): string | null {
  if (!value) return null;
  if (value.startsWith("/")) return safeReturnPath(value);
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}
