import type { LocaleCode } from "@app/contract";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { IntlProvider } from "react-intl";
import de from "../../../i18n/locales/de.json";
import en from "../../../i18n/locales/en.json";
import es from "../../../i18n/locales/es.json";
import fr from "../../../i18n/locales/fr.json";
import it from "../../../i18n/locales/it.json";
import nl from "../../../i18n/locales/nl.json";
import pl from "../../../i18n/locales/pl.json";
import { QueryProvider } from "../../../lib/query-client";

export const catalogues: Record<LocaleCode, Record<string, string>> = { en, nl, de, es, fr, it, pl };

/** Renders a picker as the chat screen would: in `locale`, with a fresh query cache. For tests. */
export function renderInLocale(ui: ReactNode, locale: LocaleCode = "en") {
  return render(wrapped(ui, locale));
}

/** `ui` inside the providers renderInLocale gives it (for a rerender). */
export function wrapped(ui: ReactNode, locale: LocaleCode = "en") {
  return (
    <IntlProvider locale={locale} defaultLocale="en" messages={catalogues[locale]}>
      <QueryProvider>{ui}</QueryProvider>
    </IntlProvider>
  );
}
