import { createHash } from "node:crypto";
import { DEFAULT_LOCALE, type LocaleCode } from "@app/contract";
import { type MessageFormatElement, parse } from "@formatjs/icu-messageformat-parser";
import de from "./locales/de.json";
import en from "./locales/en.json";
import es from "./locales/es.json";
import fr from "./locales/fr.json";
import it from "./locales/it.json";
import nl from "./locales/nl.json";
import pl from "./locales/pl.json";

/**
 * Messages as react-intl's precompiled ASTs: the browser bundle ships without the ICU message parser
 * (vite.config.ts, decision 025), so every message it formats arrives parsed.
 */
export type Messages = Record<string, MessageFormatElement[]>;

const catalogues: Record<LocaleCode, Record<string, string>> = { en, nl, de, es, fr, it, pl };
const compiled = new Map<LocaleCode, Messages>();

/**
 * Parses the way intl-messageformat parses a string message at run time (its default options, the
 * resolved locale), so that a precompiled message formats exactly as the string would.
 */
export function compileMessages(locale: LocaleCode, messages: Record<string, string>): Messages {
  const options = { locale: new Intl.Locale(locale) };
  return Object.fromEntries(Object.entries(messages).map(([id, message]) => [id, parse(message, options)]));
}

/** The messages of a locale with English filling any gap (English is the fallback, spec §1), parsed once per locale. */
export function messagesFor(locale: LocaleCode): Messages {
  let messages = compiled.get(locale);
  if (!messages) {
    const strings = locale === DEFAULT_LOCALE ? catalogues.en : { ...catalogues[DEFAULT_LOCALE], ...catalogues[locale] };
    messages = compileMessages(locale, strings);
    compiled.set(locale, messages);
  }
  return messages;
}

/**
 * Changes whenever a catalogue changes: the messages' URL carries it, so the browser may keep a
 * catalogue for a year and still never use a stale one (decision 027).
 */
export const MESSAGES_VERSION = createHash("sha256").update(JSON.stringify(catalogues)).digest("base64url").slice(0, 12);

const serialised = new Map<LocaleCode, string>();

/** `messagesFor(locale)` as the JSON the browser loads (`/i18n/<locale>`), serialised once per locale. */
export function messagesJson(locale: LocaleCode): string {
  let json = serialised.get(locale);
  if (!json) {
    json = JSON.stringify(messagesFor(locale));
    serialised.set(locale, json);
  }
  return json;
}
