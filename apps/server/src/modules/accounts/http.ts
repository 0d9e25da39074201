import { LIMITS, SESSION_COOKIE } from "@app/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import type { UserRow } from "./queries.ts";
import type { AccountService } from "./service.ts";

const resolved = new WeakMap<FastifyRequest, Promise<UserRow | null>>();

/**
 * Whether cookies get the Secure flag: when the request came over TLS, or when the public URL is
 * https (TLS may end at a proxy in front of us).
 */
export const isSecure = (request: FastifyRequest, publicUrl: string | undefined) =>
  request.protocol === "https" || !!publicUrl?.startsWith("https:");

/** The logged-in member of a request (looked up once per request), or null. */
export function currentUser(request: FastifyRequest, accounts: AccountService): Promise<UserRow | null> {
  let pending = resolved.get(request);
  if (!pending) {
    pending = accounts.sessionUser(request.cookies[SESSION_COOKIE]);
    resolved.set(request, pending);
  }
  return pending;
}

/** The logged-in member, or 403 authentication_required (spec §4: the client then logs out). */
export async function requireUser(request: FastifyRequest, accounts: AccountService): Promise<UserRow> {
  const user = await currentUser(request, accounts);
  if (!user) throw new AppError("authentication_required");
  return user;
}

/** Spec §9: cookie prefix "auth.", 30 days, path /; HttpOnly, SameSite=Lax, Secure behind TLS. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: LIMITS.authCookieMaxAgeSeconds,
  });
  resolved.delete(request);
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure });
  resolved.delete(request);
}
