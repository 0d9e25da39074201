import { z } from "zod";
import { genderSchema } from "./accounts.ts";
import { idQueryValueSchema, optionalInt } from "./http.ts";
import { INTEREST_KEYS } from "./interests.ts";
import { likeStateSchema } from "./likes.ts";
import { BODY_TYPES, distanceSchema, EYE_COLORS, HAIR_COLORS, RELATIONSHIP_STATUSES, SEXUALITIES } from "./profiles.ts";
import { SEARCH_SORTS } from "./search-sorts.ts";
import { countryCodeSchema } from "./settings.ts";
import { presenceLabelSchema, teaserProfileSchema } from "./site.ts";

/** Results per page of GET /api/members.php. */
export const SEARCH_PAGE_SIZE = 24;
/** Below this many results the search also offers similar members (wider criteria). */
export const SIMILAR_THRESHOLD = 6;
/**
 * The search counts matches up to this many and says "1000+" beyond (decision 018): an exact count of a
 * broad search would read every match on every page.
 */
export const SEARCH_COUNT_CAP = 1000;
/** Pages a search can show: those of the first SEARCH_COUNT_CAP matches (later pages answer no profiles). */
export const SEARCH_MAX_PAGES = Math.ceil(SEARCH_COUNT_CAP / SEARCH_PAGE_SIZE);

/**
 * One photo of another member as the asker may see it. `locked` photos come only as a blurred
 * thumbnail made on the server (`url` is null): the real bytes never reach someone who may not see them.
 */
export const memberPhotoSchema = z.object({
  id: z.number().int(),
  thumb_url: z.string(),
  url: z.string().nullable(),
  locked: z.boolean(),
  /** Premium-only photo (the owner marked it private). */
  private: z.boolean(),
});
export type MemberPhoto = z.infer<typeof memberPhotoSchema>;

/** Why some photos are locked for this asker: log in (visitor) or buy credits (free member). */
export const photoLockSchema = z.enum(["login", "premium"]).nullable();

/** GET /api/member.php?id=: one member's profile; fields the site hides (visible_profile_fields) are null. */
export const memberProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  gender: genderSchema.nullable(),
  sexuality: z.enum(SEXUALITIES).nullable(),
  country: countryCodeSchema.nullable(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  hair_color: z.enum(HAIR_COLORS).nullable(),
  eye_color: z.enum(EYE_COLORS).nullable(),
  body_type: z.enum(BODY_TYPES).nullable(),
  relationship_status: z.enum(RELATIONSHIP_STATUSES).nullable(),
  tattoos: z.boolean().nullable(),
  interests: z.array(z.enum(INTEREST_KEYS)),
  about: z.string(),
  fictional: z.boolean(),
  /** How far from the asker, bucketed; null for visitors, when either city is unknown, or the city is hidden. */
  distance: distanceSchema.nullable(),
  main_image: z.object({ thumb_url: z.string(), url: z.string(), status: z.enum(["pending", "active", "rejected"]) }).nullable(),
  photos: z.array(memberPhotoSchema),
  /** Photos the asker cannot see unblurred, and what would unlock them. */
  locked_photos: z.number().int().nonnegative(),
  photo_lock: photoLockSchema,
});
export type MemberProfile = z.infer<typeof memberProfileSchema>;
export const memberResponseSchema = z.object({
  profile: memberProfileSchema,
  related: z.array(teaserProfileSchema),
  /** Whether the asker has blocked this member (the action bar offers unblock then); false for visitors. */
  blocked: z.boolean(),
  /** The like between the asker and this member (spec §4); "none" for visitors and one's own profile. */
  like: likeStateSchema,
  /** Issue #29: how lately the member was around (null for visitors, and where hidden). */
  presence: presenceLabelSchema.optional(),
});
export type MemberResponse = z.infer<typeof memberResponseSchema>;
export const memberQuerySchema = z.object({ id: idQueryValueSchema });

// The orders live without zod so that the members' first screen can read them (issue #29, decision 039).
export { DEFAULT_SEARCH_SORT, SEARCH_SORTS } from "./search-sorts.ts";
export const searchSortSchema = z.enum(SEARCH_SORTS);
export type SearchSort = z.infer<typeof searchSortSchema>;

/**
 * GET /api/members.php: the spec's search state (gender, country, countryregion, min_age, max_age), a
 * page, the order (`sort`, default nearby) and the "online now" filter (`online=1`).
 */
export const memberSearchQuerySchema = z
  .object({
    gender: z.preprocess((v) => (v === "" ? undefined : v), genderSchema.optional()),
    country: z.preprocess(
      (v) => (v === "" ? undefined : typeof v === "string" ? v.toUpperCase() : v),
      countryCodeSchema.optional(),
    ),
    countryregion: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(16).optional()),
    min_age: optionalInt(18, 99),
    max_age: optionalInt(18, 99),
    page: optionalInt(1, 10_000),
    sort: z.preprocess((v) => (v === "" ? undefined : v), searchSortSchema.optional()),
    online: z.preprocess(
      (v) => (v === "" || v === "0" || v === "false" ? undefined : v === "1" || v === "true" ? true : v),
      z.literal(true).optional(),
    ),
  })
  .refine((q) => q.min_age === undefined || q.max_age === undefined || q.min_age <= q.max_age, { path: ["max_age"] });
export type MemberSearchQuery = z.infer<typeof memberSearchQuerySchema>;

export const memberSearchResponseSchema = z.object({
  profiles: z.array(teaserProfileSchema),
  /** Matches, counted up to SEARCH_COUNT_CAP. */
  numResults: z.number().int().nonnegative(),
  /** There are more than numResults matches (shown as "1000+"); `pages` then covers the first SEARCH_COUNT_CAP. */
  numResultsCapped: z.boolean(),
  page: z.number().int().positive(),
  pages: z.number().int().nonnegative(),
  /** Members close to the search when it finds fewer than SIMILAR_THRESHOLD. */
  similar: z.array(teaserProfileSchema),
});
export type MemberSearchResponse = z.infer<typeof memberSearchResponseSchema>;

/**
 * GET /api/match-finder.php: suggestions fitted to the member's own profile: the gender they look for,
 * an age within MATCH_AGE_SPREAD years of their own, their country first, members with a photo only.
 */
export const MATCH_AGE_SPREAD = 8;
export const matchFinderResponseSchema = z.object({
  profiles: z.array(teaserProfileSchema),
  criteria: z.object({
    gender: genderSchema.nullable(),
    min_age: z.number().int(),
    max_age: z.number().int(),
    country: countryCodeSchema,
  }),
});
export type MatchFinderResponse = z.infer<typeof matchFinderResponseSchema>;
