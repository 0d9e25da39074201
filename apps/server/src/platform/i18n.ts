import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_LOCALE, LOCALE_CODES, type LocaleCode } from "@app/contract";
import { IntlMessageFormat } from "intl-messageformat";

/**
 * Server-side messages (API errors, interest labels, e-mails) come from the same catalogue as the web
 * app's: apps/web/app/i18n/locales/<code>.json, English as the fallback for anything missing.
 */
const localesDir = new URL("../../../web/app/i18n/locales/", import.meta.url);

type Catalogue = Record<string, string>;

const catalogues = new Map<LocaleCode, Catalogue>();
const compiled = new Map<string, IntlMessageFormat>();

export function messagesFor(locale: LocaleCode): Catalogue {
  let catalogue = catalogues.get(locale);
  if (!catalogue) {
    catalogue = JSON.parse(readFileSync(fileURLToPath(new URL(`${locale}.json`, localesDir)), "utf8")) as Catalogue;
    catalogues.set(locale, catalogue);
  }
  return catalogue;
}

/** Formats message `id` in `locale` (falling back to English, then to the id itself). */
export function t(locale: LocaleCode, id: string, values: Record<string, string | number> = {}): string {
  const own = messagesFor(locale)[id];
  const source = own ?? messagesFor(DEFAULT_LOCALE)[id];
  if (source === undefined) return id;
  const useLocale = own === undefined ? DEFAULT_LOCALE : locale;
  const cacheKey = `${useLocale}\u0000${id}`;
  let format = compiled.get(cacheKey);
  if (!format) {
    format = new IntlMessageFormat(source, useLocale);
    compiled.set(cacheKey, format);
  }
  return String(format.format(values));
}

export function preloadCatalogues(): void {
  for (const code of LOCALE_CODES) messagesFor(code);
}
