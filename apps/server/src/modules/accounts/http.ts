import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS, LIMITS, SESSION_COOKIE } from "@app/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { forgetMember } from "../../platform/http/endpoint.ts";

/**
 * Whether cookies get the Secure flag: when the request came over TLS, or when the public URL is
 * https (TLS may end at a proxy in front of us).
 */
export const isSecure = (request: FastifyRequest, publicUrl: string | undefined) =>
  request.protocol === "https" || !!publicUrl?.startsWith("https:");

/** Spec §9: cookie prefix "auth.", 30 days, path /; HttpOnly, SameSite=Lax, Secure behind TLS. */
export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: LIMITS.authCookieMaxAgeSeconds,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure });
  forgetMember(request);
}

/** The browser's device cookie (login throttle): a year, HttpOnly, sent to the login call only. */
export function setDeviceCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(DEVICE_COOKIE, token, {
    path: "/api/",
    httpOnly: true,
    sameSite: "strict",
    secure,
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}
