/** Reads one cookie from a Cookie header (or document.cookie). */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function serializeCookie(
  name: string,
  value: string,
  options: { maxAgeSeconds: number; sameSite?: "lax" | "strict"; secure?: boolean; httpOnly?: boolean },
): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    `Max-Age=${options.maxAgeSeconds}`,
    "Path=/",
    `SameSite=${options.sameSite === "strict" ? "Strict" : "Lax"}`,
    ...(options.secure ? ["Secure"] : []),
    ...(options.httpOnly ? ["HttpOnly"] : []),
  ].join("; ");
}
