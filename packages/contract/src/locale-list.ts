/**
 * Interface languages and their negotiation, without zod: the browser loads this on every page, the
 * schemas only with the API (decision 025). locales.ts adds the schema and re-exports all of it.
 */
/** Interface languages. English is the default and the fallback for every missing message. */
export const LOCALES = [
  { code: "en", iso: "en-US", gifLocale: "en_US", file: "en.json", name: "English" },
  { code: "nl", iso: "nl-NL", gifLocale: "nl_NL", file: "nl.json", name: "Nederlands" },
  { code: "de", iso: "de-DE", gifLocale: "de_DE", file: "de.json", name: "Deutsch" },
  { code: "es", iso: "es-ES", gifLocale: "es_ES", file: "es.json", name: "Español" },
  { code: "fr", iso: "fr-FR", gifLocale: "fr_FR", file: "fr.json", name: "Français" },
  { code: "it", iso: "it-IT", gifLocale: "it_IT", file: "it.json", name: "Italiano" },
  { code: "pl", iso: "pl-PL", gifLocale: "pl_PL", file: "pl.json", name: "Polski" },
] as const;

export type Locale = (typeof LOCALES)[number];
export type LocaleCode = Locale["code"];
export const LOCALE_CODES = LOCALES.map((l) => l.code) as [LocaleCode, ...LocaleCode[]];
export const DEFAULT_LOCALE: LocaleCode = "en";

/** The locale cookie of spec §9: name, lifetime and SameSite. */
export const LOCALE_COOKIE = { name: "i18n_redirected", maxAgeSeconds: 365 * 24 * 60 * 60, sameSite: "lax" } as const;

export function isLocaleCode(value: unknown): value is LocaleCode {
  return typeof value === "string" && (LOCALE_CODES as readonly string[]).includes(value);
}

/** Locales suggested per (geo-ip or chosen) country, spec §4. */
export const LOCALE_SUGGESTIONS: Readonly<Record<string, readonly LocaleCode[]>> = {
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
};

/**
 * The first supported locale named by an Accept-Language header, by quality, matching on the primary
 * language tag ("de-AT" → "de"). Undefined when none is supported.
 */
export function localeFromAcceptLanguage(header: string | null | undefined): LocaleCode | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number.parseFloat(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isNaN(quality) ? 0 : quality, index };
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    const primary = tag.split("-")[0];
    if (isLocaleCode(primary)) return primary;
  }
  return undefined;
}

export interface LocaleNegotiation {
  locale: LocaleCode;
  /** Set when the cookie should be written (none was there, or it named an unknown locale). */
  setCookie: boolean;
}

/**
 * Spec §4: the saved cookie first; without one, the site's domain language (when it names a locale;
 * it is then saved in the cookie, as the spec says), then the browser's language, then English.
 */
export function negotiateLocale(input: {
  cookie?: string | null;
  acceptLanguage?: string | null;
  domainLanguage?: string | null;
}): LocaleNegotiation {
  if (isLocaleCode(input.cookie)) return { locale: input.cookie, setCookie: false };
  if (isLocaleCode(input.domainLanguage)) return { locale: input.domainLanguage, setCookie: true };
  return { locale: localeFromAcceptLanguage(input.acceptLanguage) ?? DEFAULT_LOCALE, setCookie: false };
}

/**
 * Locales the language switcher offers (spec §4): the country's suggestions, the current locale and the
 * browser's language always; every locale when a logged-out visitor's geo-ip country differs from the
 * country they selected, or when the country has no suggestions.
 */
export function suggestedLocales(input: {
  current: LocaleCode;
  browser?: LocaleCode | undefined;
  geoipCountry?: string | null;
  selectedCountry?: string | null;
  loggedIn: boolean;
}): LocaleCode[] {
  const country = (input.selectedCountry ?? input.geoipCountry ?? "").toUpperCase();
  const differs =
    !input.loggedIn &&
    !!input.geoipCountry &&
    !!input.selectedCountry &&
    input.geoipCountry.toUpperCase() !== input.selectedCountry.toUpperCase();
  const suggestions = LOCALE_SUGGESTIONS[country];
  if (differs || !suggestions) return [...LOCALE_CODES];
  const wanted = new Set<LocaleCode>([input.current, ...(input.browser ? [input.browser] : []), ...suggestions]);
  return LOCALE_CODES.filter((code) => wanted.has(code));
}
