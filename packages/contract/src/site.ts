import { z } from "zod";
import { distanceSchema } from "./profiles.ts";
import { countryCodeSchema } from "./settings.ts";

/** GET /api/companyinfo.php (spec §3 Company info). */
export const companyInfoSchema = z.object({
  name: z.string(),
  address: z.string(),
  kvk: z.string(),
  city: z.string(),
  country: z.string(),
  tradenames: z.array(z.string()),
  vat_numbers: z.array(z.string()),
  /** Digits and a leading + only: dashes and spaces removed. */
  support_phone: z.string(),
  /** Percentage offered to a member who starts deleting their account. */
  delete_discount: z.number().int().min(0).max(100),
  /** Date the company was added (ISO 8601); the terms' version date is the later of this and 2023-12-01. */
  added: z.string(),
});
export type CompanyInfo = z.infer<typeof companyInfoSchema>;
export const companyInfoResponseSchema = z.object({ company: companyInfoSchema });
export type CompanyInfoResponse = z.infer<typeof companyInfoResponseSchema>;

/** Spec §9: the terms version date is the later of 2023-12-01 12:00 UTC and the company added date. */
export function termsVersionDate(company: Pick<CompanyInfo, "added">): Date {
  const floor = Date.UTC(2023, 11, 1, 12, 0, 0);
  const added = Date.parse(company.added);
  return new Date(Number.isNaN(added) ? floor : Math.max(floor, added));
}

export const interestSchema = z.object({ key: z.string(), label: z.string() });
/** GET /api/interests.php: interest keys with labels in the request's locale. */
export const interestsResponseSchema = z.object({ interests: z.array(interestSchema) });
export type InterestsResponse = z.infer<typeof interestsResponseSchema>;
export type Interest = z.infer<typeof interestSchema>;

export const regionSchema = z.object({ code: z.string(), name: z.string() });
/** GET /api/regions.php: the regions (provinces, states, cantons, voivodeships) of every served country. */
export const regionsResponseSchema = z.object({ regions: z.record(countryCodeSchema, z.array(regionSchema)) });
export type Region = z.infer<typeof regionSchema>;
export type RegionsResponse = z.infer<typeof regionsResponseSchema>;

/** A profile as the logged-out home page's teaser shows it: nothing a visitor may not see. */
/**
 * Issue #29: how lately a member was around, never an exact time: "online" (looking at the site now),
 * "today" (last active within 24 hours), "week" (within 7 days). Null: longer ago, unknown, or hidden
 * (the member hides it or is invisible, or the asker hides their own: hiding is mutual).
 */
export const PRESENCE_LABELS = ["online", "today", "week"] as const;
export const presenceLabelSchema = z.enum(PRESENCE_LABELS).nullable();
export type PresenceLabel = z.infer<typeof presenceLabelSchema>;

export const teaserProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  country: countryCodeSchema,
  city: z.string().nullable(),
  fictional: z.boolean(),
  main_image: z.object({ thumb_url: z.string(), status: z.enum(["pending", "active", "rejected"]) }).nullable(),
  /** How far from the asker, bucketed; null for visitors or when either city is unknown. */
  distance: distanceSchema.nullable(),
  /** Issue #29: the presence label, where the list shows one (the search; absent elsewhere). */
  presence: presenceLabelSchema.optional(),
});
export type TeaserProfile = z.infer<typeof teaserProfileSchema>;
export const teaserResponseSchema = z.object({ profiles: z.array(teaserProfileSchema) });

export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.enum(["pglite", "postgres"]),
  bus: z.enum(["memory", "redis"]),
});
