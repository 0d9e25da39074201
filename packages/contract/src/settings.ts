import { z } from "zod";
import { localeCodeSchema } from "./locales.ts";
import { moderationModeSchema } from "./moderation.ts";

export const countryCodeSchema = z.string().regex(/^[A-Z]{2}$/);

/** Spec §4: 'all', 'with_trafficsource' (only with a traffic source) or anything else (closed). */
export const signupsModeSchema = z.enum(["all", "with_trafficsource", "none"]);

/** Profile fields a site shows (`visible_profile_fields`) and may search on (`search_fields`). */
export const PROFILE_FIELDS = [
  "gender",
  "sexuality",
  "age",
  "country",
  "region",
  "city",
  "hair_color",
  "eye_color",
  "body_type",
  "relationship_status",
  "tattoos",
  "interests",
  "about",
] as const;
export const profileFieldSchema = z.enum(PROFILE_FIELDS);

export const SEARCH_FIELDS = ["gender", "country", "countryregion", "min_age", "max_age"] as const;
export const searchFieldSchema = z.enum(SEARCH_FIELDS);

/**
 * The camera/resell tiles of the profile settings screen (spec §2, shown when settings.member_resell
 * is on): partner offers a site links to, configured per site. `camera` is a live-cam partner,
 * `resell` a partner dating site.
 */
export const RESELL_TILE_KINDS = ["camera", "resell"] as const;
export const resellTileSchema = z.object({
  kind: z.enum(RESELL_TILE_KINDS),
  url: z.url({ protocol: /^https?$/ }),
  partner: z.string().min(1).max(60),
});
export type ResellTile = z.infer<typeof resellTileSchema>;

/** GET /api/settings.php: every Settings field of spec §3, for the request's host. */
export const settingsSchema = z.object({
  countries: z.array(countryCodeSchema),
  name: z.string(),
  index_title: z.string(),
  description: z.string(),
  visible_profile_fields: z.array(profileFieldSchema),
  /** Notes shown under a profile per field (field → translated note); empty when none. */
  visible_profile_notes: z.record(z.string(), z.string()),
  /** Country of the request's address, when known (from a trusted proxy header). */
  geoip_country: countryCodeSchema.nullable(),
  /** Country the visitor chose (query `country` or its cookie), else the geo-ip country. */
  geoip_selected_country: countryCodeSchema.nullable(),
  cdn_prefix: z.string(),
  message_credits: z.number().int().nonnegative(),
  photo_credits: z.number().int().nonnegative(),
  gift_credits: z.number().int().nonnegative(),
  signup_credits: z.number().int().nonnegative(),
  message_length: z.number().int().positive(),
  minimum_message_costs: z.record(countryCodeSchema, z.object({ costs: z.number(), currency: z.string() })),
  support_email: z.string(),
  enable_site_entry_popup: z.enum(["yes", "no"]),
  /** Countries where the entry warning is shown; empty means everywhere. */
  site_entry_popup_countries: z.array(countryCodeSchema),
  /** The VAPID public key (base64url) push subscriptions are made with; null when push is off. */
  push_public_key: z.string().nullable(),
  /** Spec §9: the push service worker's version and the design version (PUSH_WORKER_VERSION, DESIGN_VERSION). */
  push_worker_version: z.number().int(),
  design_version: z.number().int(),
  search_fields: z.array(searchFieldSchema),
  domain: z.string(),
  domain_language: localeCodeSchema.nullable(),
  /** Translated disclosure that some profiles are fictional. */
  fictional_warning: z.string(),
  fictional_singular: z.string(),
  fictional_plural: z.string(),
  refund_days: z.number().int().nonnegative(),
  signups: signupsModeSchema,
  logged_out_search: z.enum(["all", "none"]),
  logged_out_search_trafficsource: z.enum(["all", "none"]),
  member_resell: z.boolean(),
  /** The partner tiles member_resell shows (at most four); empty when the site has none. */
  resell_tiles: z.array(resellTileSchema).max(4),
  /** Name of the icon that marks fictional profiles (rendered by the web's icon set). */
  fictional_icon: z.string(),
  /**
   * Whether purchases can be made here: false on a site without a payment provider, whose payment calls
   * answer payments_unavailable; the web then shows no discount banner and no buy buttons (decision 030).
   */
  purchases_available: z.boolean(),
  /**
   * When new and changed photos and about texts are reviewed (issue #27): "before" they go live (others
   * see them once approved; their owner sees them "in review") or "after" (live at once, until rejected).
   */
  moderation: moderationModeSchema,
});
export type Settings = z.infer<typeof settingsSchema>;

export const settingsResponseSchema = z.object({ settings: settingsSchema });
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

/** Query of GET /api/settings.php: the route's query parameters are passed as they are. */
export const settingsQuerySchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
