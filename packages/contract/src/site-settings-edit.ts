import { z } from "zod";
import { emailSchema } from "./accounts.ts";
import { localeCodeSchema } from "./locales.ts";
import { settingsSchema } from "./settings.ts";

/**
 * The Settings fields (spec §3) a site's admin edits in the staff console (/staff/settings, issue #27):
 * the site's own columns (name, texts, language, support address) and the overrides it keeps of the
 * product's defaults. Every field has the schema GET /api/settings.php answers it with, narrowed where a
 * stored value must also be usable (a positive length, a bounded price, an address that is one).
 * Derived fields (geo-ip, domain, the fictional texts, purchases) are not settings anyone edits.
 */
const credits = z.number().int().min(0).max(100_000);
export const editableSettingsSchema = settingsSchema
  .pick({
    countries: true,
    visible_profile_fields: true,
    minimum_message_costs: true,
    enable_site_entry_popup: true,
    site_entry_popup_countries: true,
    search_fields: true,
    signups: true,
    logged_out_search: true,
    logged_out_search_trafficsource: true,
    member_resell: true,
    resell_tiles: true,
    moderation: true,
  })
  .extend({
    name: z.string().trim().min(1).max(80),
    /** Empty: the translated default title (site.index_title). */
    index_title: z.string().trim().max(160),
    /** Empty: the translated default description. */
    description: z.string().trim().max(400),
    domain_language: localeCodeSchema.nullable(),
    support_email: emailSchema,
    cdn_prefix: z
      .string()
      .trim()
      .regex(/^(\/|https:\/\/)[^\s"'<>]*\/$/),
    message_credits: credits,
    photo_credits: credits,
    gift_credits: credits,
    signup_credits: credits,
    message_length: z.number().int().min(1).max(10_000),
    refund_days: z.number().int().min(0).max(365),
    fictional_icon: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9-]{0,39}$/),
    countries: z.array(settingsSchema.shape.countries.element).min(1),
  });
export type EditableSettings = z.infer<typeof editableSettingsSchema>;
export type EditableSettingsInput = z.input<typeof editableSettingsSchema>;

/** One site as the settings page lists it. */
export const staffSiteSchema = z.object({
  id: z.number().int(),
  host: z.string(),
  is_default: z.boolean(),
  settings: editableSettingsSchema,
});
export type StaffSite = z.infer<typeof staffSiteSchema>;

/** A field a save would change (the preview), with the value before and after. */
export const settingsChangeSchema = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
export type SettingsChange = z.infer<typeof settingsChangeSchema>;
