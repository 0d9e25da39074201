import { LOCALE_COOKIE, LOCALES, type LocaleCode, suggestedLocales } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useRevalidator } from "react-router";
import { serializeCookie } from "../lib/cookies";
import { useMember } from "../lib/member";
import { loadMessages } from "../lib/messages";
import { useRootData } from "../lib/root-data";
import { Menu, MenuDivider } from "./menu";

/**
 * Saves the chosen locale in the i18n_redirected cookie (365 days, lax) and, for a logged-in member,
 * in the account (spec §4; a failure is ignored), loads the language's messages, then reloads the root data.
 */
export function useSwitchLocale(): (code: LocaleCode) => Promise<void> {
  const revalidator = useRevalidator();
  const member = useMember();
  const root = useRootData();
  return async (code) => {
    // The new language's messages first, so that the page changes language in one step.
    const messages = root ? loadMessages(code, root.messagesVersion).catch(() => undefined) : undefined;
    // The account's language is saved beside the switch, not before it (issue #29): the page follows the
    // cookie, so it need not wait for the save, whose retries take about 20 s when it fails; a failed
    // save is ignored (spec §8).
    if (member.user) void member.saveLanguage(code).catch(() => undefined);
    await messages;
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve.
    document.cookie = serializeCookie(LOCALE_COOKIE.name, code, {
      maxAgeSeconds: LOCALE_COOKIE.maxAgeSeconds,
      secure: window.location.protocol === "https:",
    });
    await revalidator.revalidate();
  };
}

export function useSuggestedLocales(): LocaleCode[] {
  const root = useRootData();
  const member = useMember();
  if (!root) return [];
  return suggestedLocales({
    current: root.locale,
    browser: root.browserLocale ?? undefined,
    geoipCountry: root.settings.geoip_country,
    selectedCountry: root.settings.geoip_selected_country,
    loggedIn: member.user !== null,
  });
}

/** Language menu of the top navigation: suggested locales (spec §4) and a link to every language. */
export function LanguageSwitcher() {
  const intl = useIntl();
  const root = useRootData();
  const switchLocale = useSwitchLocale();
  const suggested = useSuggestedLocales();
  if (!root) return null;
  const current = LOCALES.find((l) => l.code === root.locale) ?? LOCALES[0];
  return (
    <Menu
      id="language-switcher"
      toggleClassName="btn-outline-light btn-sm"
      toggle={
        <>
          <span className="visually-hidden">{intl.formatMessage({ id: "language.label" })}: </span>
          {current.name}
        </>
      }
    >
      {suggested.map((code) => {
        const locale = LOCALES.find((l) => l.code === code);
        if (!locale) return null;
        const active = code === root.locale;
        return (
          <button
            key={code}
            type="button"
            lang={code}
            className={`dropdown-item${active ? " active" : ""}`}
            aria-current={active ? "true" : undefined}
            onClick={() => void switchLocale(code)}
          >
            {locale.name}
          </button>
        );
      })}
      <MenuDivider />
      <Link className="dropdown-item" to="/lang-config">
        <FormattedMessage id="language.all" />
      </Link>
    </Menu>
  );
}
