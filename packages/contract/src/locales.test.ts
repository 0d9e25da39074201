import { describe, expect, it } from "vitest";
import { LOCALE_SUGGESTIONS, localeFromAcceptLanguage, negotiateLocale, suggestedLocales } from "./locales.ts";

describe("locale negotiation (spec §4)", () => {
  it("prefers the saved cookie", () => {
    expect(negotiateLocale({ cookie: "pl", acceptLanguage: "de", domainLanguage: "nl" })).toEqual({
      locale: "pl",
      setCookie: false,
    });
  });
  it("without a cookie uses the site's domain language and saves it", () => {
    expect(negotiateLocale({ cookie: null, acceptLanguage: "de", domainLanguage: "nl" })).toEqual({
      locale: "nl",
      setCookie: true,
    });
  });
  it("then the browser's language, by quality, on the primary tag", () => {
    expect(negotiateLocale({ acceptLanguage: "ja, fr-CH;q=0.9, de;q=0.95" }).locale).toBe("de");
    expect(negotiateLocale({ acceptLanguage: "es-419" }).locale).toBe("es");
  });
  it("falls back to English; unknown cookie or domain language are ignored", () => {
    expect(negotiateLocale({ cookie: "xx", acceptLanguage: "ja", domainLanguage: "sv" })).toEqual({
      locale: "en",
      setCookie: false,
    });
    expect(localeFromAcceptLanguage(undefined)).toBeUndefined();
    expect(localeFromAcceptLanguage("it;q=0")).toBeUndefined();
  });
});

describe("language suggestions (spec §4)", () => {
  it("has the spec's table", () => {
    expect(LOCALE_SUGGESTIONS).toMatchObject({
      US: ["en", "es"],
      NL: ["nl"],
      BE: ["nl", "fr", "de"],
      FR: ["fr"],
      IT: ["it"],
      ES: ["es"],
      DE: ["de"],
      AT: ["de"],
      IE: ["en"],
      GB: ["en"],
      AU: ["en"],
      NZ: ["en"],
      CA: ["en", "fr"],
      PL: ["pl"],
      CH: ["de", "it", "fr", "en"],
    });
  });
  it("always includes the current locale and the browser's language", () => {
    expect(
      suggestedLocales({ current: "pl", browser: "it", geoipCountry: "BE", selectedCountry: "BE", loggedIn: false }),
    ).toEqual(["nl", "de", "fr", "it", "pl"]);
  });
  it("shows all locales when a logged-out visitor's geo-ip country differs from the selected one", () => {
    expect(suggestedLocales({ current: "en", geoipCountry: "NL", selectedCountry: "DE", loggedIn: false })).toHaveLength(7);
    expect(suggestedLocales({ current: "en", geoipCountry: "NL", selectedCountry: "DE", loggedIn: true })).toEqual(["en", "de"]);
  });
});
