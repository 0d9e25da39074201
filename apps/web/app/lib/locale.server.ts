import { LOCALE_COOKIE, type LocaleNegotiation, negotiateLocale, type SsrServices } from "@app/contract";
import { readCookie } from "./cookies";

/** The request's locale by spec §4's order (cookie, domain language, browser, English). */
export async function resolveLocale(request: Request, services: SsrServices): Promise<LocaleNegotiation> {
  return negotiateLocale({
    cookie: readCookie(request.headers.get("cookie"), LOCALE_COOKIE.name),
    acceptLanguage: request.headers.get("accept-language"),
    domainLanguage: await services.domainLanguage(),
  });
}
