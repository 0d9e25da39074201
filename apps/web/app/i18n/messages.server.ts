import { DEFAULT_LOCALE, type LocaleCode } from "@app/contract";
import de from "./locales/de.json";
import en from "./locales/en.json";
import es from "./locales/es.json";
import fr from "./locales/fr.json";
import it from "./locales/it.json";
import nl from "./locales/nl.json";
import pl from "./locales/pl.json";

export type Messages = Record<string, string>;

const catalogues: Record<LocaleCode, Messages> = { en, nl, de, es, fr, it, pl };

/** The messages of a locale with English filling any gap (English is the fallback, spec §1). */
export function messagesFor(locale: LocaleCode): Messages {
  if (locale === DEFAULT_LOCALE) return catalogues.en;
  return { ...catalogues[DEFAULT_LOCALE], ...catalogues[locale] };
}
