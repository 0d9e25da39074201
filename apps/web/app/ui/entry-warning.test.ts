import { describe, expect, it } from "vitest";
import { shouldShowEntryWarning } from "./entry-warning";

const settings = {
  enable_site_entry_popup: "yes" as const,
  site_entry_popup_countries: [] as string[],
  geoip_selected_country: "NL",
};
const base = { settings, loggedIn: false, standalone: false, hidden: false, skippedAt: null };

describe("site-entry warning (spec §4)", () => {
  it("shows to a logged-out visitor who has not skipped it", () => {
    expect(shouldShowEntryWarning(base)).toBe(true);
  });
  it("is suppressed once skipped, when logged in, in installed-app display, on hidden screens", () => {
    expect(shouldShowEntryWarning({ ...base, skippedAt: "2026-01-01T00:00:00Z" })).toBe(false);
    expect(shouldShowEntryWarning({ ...base, loggedIn: true })).toBe(false);
    expect(shouldShowEntryWarning({ ...base, standalone: true })).toBe(false);
    expect(shouldShowEntryWarning({ ...base, hidden: true })).toBe(false);
  });
  it("is suppressed when the settings say 'no'", () => {
    expect(shouldShowEntryWarning({ ...base, settings: { ...settings, enable_site_entry_popup: "no" } })).toBe(false);
  });
  it("honours the optional list of countries", () => {
    const listed = { ...settings, site_entry_popup_countries: ["DE", "NL"] };
    expect(shouldShowEntryWarning({ ...base, settings: listed })).toBe(true);
    expect(shouldShowEntryWarning({ ...base, settings: { ...listed, geoip_selected_country: "FR" } })).toBe(false);
    expect(shouldShowEntryWarning({ ...base, settings: { ...listed, geoip_selected_country: null } })).toBe(false);
  });
});
