import { ENDPOINTS, LOCALES } from "@app/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { callEndpoint } from "../../../lib/api";

/**
 * The gift catalogue (GET /api/gifts.php). It changes only with the site's settings, so one load serves
 * the page's life.
 */
export const giftsQuery = queryOptions({
  queryKey: ["chat", "gifts"],
  queryFn: async () => (await callEndpoint(ENDPOINTS.gifts)).gifts,
  staleTime: Number.POSITIVE_INFINITY,
});

/**
 * One GIF search (GET /api/gifs.php?q=&locale=); an empty `q` answers the popular ones. The previous
 * answer stays on screen while the next loads, so the grid does not flash empty between keystrokes.
 */
export const gifsQuery = (q: string, locale: string) =>
  queryOptions({
    queryKey: ["chat", "gifs", locale, q],
    queryFn: () => callEndpoint(ENDPOINTS.gifs, { query: { q, locale } }),
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });

/** The spec's gifLocale of an interface language ("nl" or "nl-NL" → "nl_NL"); English for anything else. */
export function gifLocaleOf(locale: string): string {
  const code = locale.toLowerCase().split(/[-_]/)[0];
  return (LOCALES.find((entry) => entry.code === code) ?? LOCALES[0]).gifLocale;
}
