import { PROFILE_FIELDS, SEARCH_FIELDS, settingsSchema } from "@app/contract";
import type { z } from "zod";

/** Countries the product serves; each has regions in data/regions.ts. */
export const SERVED_COUNTRIES = ["NL", "BE", "DE", "AT", "CH", "FR", "IT", "ES", "PL", "GB", "IE", "US", "CA", "AU", "NZ"];

/**
 * Settings a site may override in its `settings` column. Everything else is derived from the site's
 * columns or the request. Defaults are the product's choices where the spec says "not shown".
 */
export const siteOverridesSchema = settingsSchema
  .pick({
    countries: true,
    visible_profile_fields: true,
    cdn_prefix: true,
    message_credits: true,
    photo_credits: true,
    gift_credits: true,
    signup_credits: true,
    message_length: true,
    minimum_message_costs: true,
    enable_site_entry_popup: true,
    site_entry_popup_countries: true,
    search_fields: true,
    refund_days: true,
    signups: true,
    logged_out_search: true,
    logged_out_search_trafficsource: true,
    member_resell: true,
    resell_tiles: true,
    fictional_icon: true,
    moderation: true,
  })
  .partial();
export type SiteOverrides = z.infer<typeof siteOverridesSchema>;

const euro = { costs: 0.99, currency: "EUR" };
export const DEFAULT_OVERRIDES: Required<SiteOverrides> = {
  countries: SERVED_COUNTRIES,
  visible_profile_fields: [...PROFILE_FIELDS],
  cdn_prefix: "/cdn/",
  message_credits: 10,
  photo_credits: 20,
  gift_credits: 30,
  signup_credits: 20,
  message_length: 2000,
  minimum_message_costs: {
    NL: euro,
    BE: euro,
    DE: euro,
    AT: euro,
    FR: euro,
    IT: euro,
    ES: euro,
    IE: euro,
    CH: { costs: 0.99, currency: "CHF" },
    PL: { costs: 4.49, currency: "PLN" },
    GB: { costs: 0.89, currency: "GBP" },
    US: { costs: 0.99, currency: "USD" },
    CA: { costs: 1.29, currency: "CAD" },
    AU: { costs: 1.49, currency: "AUD" },
    NZ: { costs: 1.59, currency: "NZD" },
  },
  enable_site_entry_popup: "yes",
  site_entry_popup_countries: [],
  search_fields: [...SEARCH_FIELDS],
  refund_days: 14,
  signups: "all",
  logged_out_search: "all",
  logged_out_search_trafficsource: "all",
  member_resell: false,
  resell_tiles: [],
  fictional_icon: "masks",
  // Photos and about texts go live at once and are reviewed afterwards (issue #27), as before the review existed.
  moderation: "after",
};
