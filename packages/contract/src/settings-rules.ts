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

/** The fields the settings rules below read (EditableSettings, without zod: the staff page loads them). */
interface CountrySettings {
  countries: readonly string[];
  site_entry_popup_countries: readonly string[];
  minimum_message_costs: Record<string, unknown>;
}

/**
 * The rules between settings fields that a field's own schema cannot see (issue #27, the staff
 * console's settings page; the server checks them again on save): every country a site serves is one
 * the product serves; the entry warning's countries and the per-country minimum message costs name
 * countries the site serves. Answers each field's problem as an error code (`error.<code>`).
 */
export function settingsProblems(settings: CountrySettings, servedByProduct: readonly string[]): Record<string, string> {
  const problems: Record<string, string> = {};
  const unknown = settings.countries.find((country) => !servedByProduct.includes(country));
  if (unknown) problems.countries = "settings_country_not_served";
  if (new Set(settings.countries).size !== settings.countries.length) problems.countries = "settings_country_twice";
  if (settings.site_entry_popup_countries.some((country) => !settings.countries.includes(country))) {
    problems.site_entry_popup_countries = "settings_country_not_listed";
  }
  if (Object.keys(settings.minimum_message_costs).some((country) => !settings.countries.includes(country))) {
    problems.minimum_message_costs = "settings_country_not_listed";
  }
  return problems;
}
