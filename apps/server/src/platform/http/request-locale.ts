import { LOCALE_COOKIE, type LocaleCode, negotiateLocale } from "@app/contract";
import type { FastifyRequest } from "fastify";

/** The locale an API answer is written in: the locale cookie, then Accept-Language, then English. */
export function requestLocale(request: FastifyRequest): LocaleCode {
  return negotiateLocale({
    cookie: request.cookies?.[LOCALE_COOKIE.name],
    acceptLanguage: request.headers["accept-language"],
  }).locale;
}

/** Host of the request without port (the Host header, or X-Forwarded-Host behind a trusted proxy). */
export function requestHost(request: FastifyRequest): string {
  return request.hostname.replace(/:\d+$/, "").toLowerCase();
}
