import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { createContext, useContext, useEffect, useReducer, useRef } from "react";

/** Precompiled messages (i18n/messages.server.ts): the browser has no ICU message parser. */
export type Messages = Record<string, MessageFormatElement[]>;

/**
 * Where the browser loads a locale's messages (routes/i18n-messages.ts). They are not in the HTML
 * (decision 027): the catalogue is ~95 KB of parsed messages, which the browser caches for a year per version.
 */
export const messagesPath = (locale: string, version: string) => `/i18n/${locale}?v=${encodeURIComponent(version)}`;

/** The `rel` of the head's link to the page's messages: inert, so that nothing fetches them before the first paint. */
export const MESSAGES_REL = "x-messages";
/** The global under which START_SCRIPTS (lib/deferred-scripts.ts) leaves its request for them. */
export const STARTED_MESSAGES = "__appMessages";

const loaded = new Map<string, Messages>();
const loading = new Map<string, Promise<Messages>>();

/** Fetches a locale's messages once per page (the browser's cache serves them after the first time). */
export function loadMessages(locale: string, version: string): Promise<Messages> {
  const ready = loaded.get(locale);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(locale);
  if (!pending) {
    pending = fetch(messagesPath(locale, version), { credentials: "same-origin" })
      .then(jsonOf)
      .then((messages) => {
        loaded.set(locale, messages);
        return messages;
      })
      .finally(() => loading.delete(locale));
    loading.set(locale, pending);
  }
  return pending;
}

/**
 * The page's own messages, before hydration (entry.client.tsx): START_SCRIPTS has already asked for
 * them, beside the scripts; otherwise they are fetched from the page's `x-messages` link.
 */
export async function primePageMessages(): Promise<void> {
  const locale = document.documentElement.lang;
  const started = (window as unknown as Record<string, Promise<Messages> | undefined>)[STARTED_MESSAGES];
  const href = document.querySelector<HTMLLinkElement>(`link[rel="${MESSAGES_REL}"]`)?.href;
  // The root error page has no link: it is in English and formats no message.
  if (!href) return;
  const fetchOnce = () => fetch(href, { credentials: "same-origin" }).then(jsonOf);
  // One more try when the first one failed (a dropped connection on a phone).
  const messages = await (started ?? fetchOnce()).catch(fetchOnce);
  loaded.set(locale, messages);
}

const jsonOf = (response: Response): Promise<Messages> => {
  if (!response.ok) throw new Error(`messages: HTTP ${response.status}`);
  return response.json() as Promise<Messages>;
};

/** Gives a component the messages of a locale if they are at hand: on the server all of them, in the browser those loaded. */
export const MessagesContext = createContext<(locale: string) => Messages | undefined>((locale) => loaded.get(locale));

/**
 * The messages for `locale` as the IntlProvider should show them. After a language change whose
 * catalogue is not loaded yet, the page stays in the previous language until it is, instead of
 * showing message ids.
 */
export function useLocaleMessages(locale: string, version: string): { locale: string; messages: Messages } {
  const messagesOf = useContext(MessagesContext);
  const ready = messagesOf(locale);
  const shown = useRef({ locale, messages: ready ?? {} });
  if (ready) shown.current = { locale, messages: ready };
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (ready) return;
    let live = true;
    loadMessages(locale, version).then(
      () => live && rerender(),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [ready, locale, version]);
  return shown.current;
}
