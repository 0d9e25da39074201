import type { Settings } from "./settings.ts";

// Rules on the settings, without zod: the browser loads these on every page (decision 025).

/** Spec §4: signups are enabled when signups is 'all', or 'with_trafficsource' with a traffic source. */
export function signupsEnabled(settings: Pick<Settings, "signups">, hasTrafficSource: boolean): boolean {
  return settings.signups === "all" || (settings.signups === "with_trafficsource" && hasTrafficSource);
}

/**
 * Spec §4: search is visible when logged in, or logged_out_search is not 'none', or the traffic-source
 * variant is not 'none' and a traffic source is present.
 */
export function searchVisible(
  settings: Pick<Settings, "logged_out_search" | "logged_out_search_trafficsource">,
  loggedIn: boolean,
  hasTrafficSource: boolean,
): boolean {
  return (
    loggedIn || settings.logged_out_search !== "none" || (settings.logged_out_search_trafficsource !== "none" && hasTrafficSource)
  );
}
