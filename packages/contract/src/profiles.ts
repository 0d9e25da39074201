import { z } from "zod";
import { genderSchema, mainImageSchema, seekingSchema } from "./accounts.ts";
import { DISTANCE_BUCKETS_KM } from "./distance-buckets.ts";
import { idQueryValueSchema, idSchema } from "./http.ts";
import { INTEREST_KEYS } from "./interests.ts";
import { moderationReasonSchema } from "./moderation.ts";

/** Spec §3 Profile value lists (stored keys; labels are `profile.<field>.<key>` messages). */
export const SEXUALITIES = ["hetero", "gay", "lesbian", "bi"] as const;
export const HAIR_COLORS = [
  "black",
  "blond",
  "dark_blond",
  "brunette",
  "brown",
  "dark_brown",
  "gray",
  "red",
  "white",
  "bald",
  "other",
] as const;
export const EYE_COLORS = ["blue", "green", "hazel", "brown"] as const;
export const BODY_TYPES = ["slim", "normal", "fat"] as const;
export const RELATIONSHIP_STATUSES = ["single", "married", "divorced", "widowed", "unmarried", "living_together"] as const;

export const PROFILE_LIMITS = { aboutMax: 2000, cityMax: 80, interestsMax: 12 } as const;

export const photoSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  thumb_url: z.string(),
  /** pending: in review, seen by its owner only (a site reviewing before); rejected: seen by its owner only. */
  status: z.enum(["pending", "active", "rejected"]),
  /** Why the photo was rejected (status rejected), else null. */
  rejection_reason: moderationReasonSchema.nullable(),
  is_main: z.boolean(),
  private: z.boolean(),
  position: z.number().int(),
});
export type Photo = z.infer<typeof photoSchema>;

/** GET/PUT /api/profile.php: the member's own profile, every field. */
export const ownProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(["active", "disabled"]),
  gender: genderSchema,
  seeking: seekingSchema,
  sexuality: z.enum(SEXUALITIES),
  date_of_birth: z.string(),
  age: z.number().int(),
  country: z.string(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  hair_color: z.enum(HAIR_COLORS).nullable(),
  eye_color: z.enum(EYE_COLORS).nullable(),
  body_type: z.enum(BODY_TYPES).nullable(),
  relationship_status: z.enum(RELATIONSHIP_STATUSES).nullable(),
  tattoos: z.boolean().nullable(),
  interests: z.array(z.enum(INTEREST_KEYS)),
  /** The member's about text: the one in review when `about_in_review`, else the one others see. */
  about: z.string(),
  /** The about text waits for review and others still see the last approved one (a site reviewing before). */
  about_in_review: z.boolean(),
  /** Why the member's last about text was rejected (it reverted to the last approved one), until they edit it. */
  about_rejection: moderationReasonSchema.nullable(),
  main_image: mainImageSchema.nullable(),
  photos: z.array(photoSchema),
  /** How many photos the member may have: 3 free, 25 premium (spec §9). */
  photo_limit: z.number().int(),
  /** Whether the city was found on the map (distances to others need it); false without a city. */
  located: z.boolean(),
});
export type OwnProfile = z.infer<typeof ownProfileSchema>;
export const ownProfileResponseSchema = z.object({ profile: ownProfileSchema });
export type OwnProfileResponse = z.infer<typeof ownProfileResponseSchema>;

/** PUT /api/profile.php: any subset of the editable fields. */
export const profileUpdateSchema = z
  .object({
    sexuality: z.enum(SEXUALITIES),
    seeking: seekingSchema,
    country: z.string().regex(/^[A-Z]{2}$/),
    region: z.string().max(16).nullable(),
    city: z.string().trim().max(PROFILE_LIMITS.cityMax).nullable(),
    hair_color: z.enum(HAIR_COLORS).nullable(),
    eye_color: z.enum(EYE_COLORS).nullable(),
    body_type: z.enum(BODY_TYPES).nullable(),
    relationship_status: z.enum(RELATIONSHIP_STATUSES).nullable(),
    tattoos: z.boolean().nullable(),
    interests: z.array(z.enum(INTEREST_KEYS)).max(PROFILE_LIMITS.interestsMax),
    about: z.string().trim().max(PROFILE_LIMITS.aboutMax),
  })
  .partial()
  .strict();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** POST /api/photos.php (multipart, file in field `photo`) answers the member's photos. */
export const photosResponseSchema = z.object({ photos: z.array(photoSchema), photo_limit: z.number().int() });
export type PhotosResponse = z.infer<typeof photosResponseSchema>;
export const PHOTO_UPLOAD = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  types: ["image/jpeg", "image/png", "image/webp"],
} as const;

/** PUT /api/photo.php: change one of the member's own photos. DELETE /api/photo.php?id= removes it. */
export const photoUpdateSchema = z
  .object({
    id: idSchema,
    main: z.literal(true).optional(),
    private: z.boolean().optional(),
    position: z.number().int().min(0).max(100).optional(),
  })
  .strict();
export const photoIdQuerySchema = z.object({ id: idQueryValueSchema });

/** GET /api/geocode.php?lat=&lon=: where a point is (offline reverse geocoding; spec §7). */
export const geocodeQuerySchema = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
});
export const geocodeResponseSchema = z.object({ country: z.string(), region: z.string().nullable(), city: z.string() });
export type GeocodeResponse = z.infer<typeof geocodeResponseSchema>;

export { DISTANCE_BUCKETS_KM };

/**
 * How far away another member lives, never more exact than a bucket (issue #4: exact coordinates are
 * never sent to another member). Distances are between city centres: a member's position is the centre
 * of the city on their profile, never a device's position. `within_km` is the bucket's upper bound;
 * null means further than the last bucket (DISTANCE_BUCKETS_KM's last value).
 */
export const distanceSchema = z.object({ within_km: z.number().int().nullable() });
export type Distance = z.infer<typeof distanceSchema>;

/** The bucket of a distance in kilometres. */
export function distanceBucket(km: number): Distance {
  return { within_km: DISTANCE_BUCKETS_KM.find((bound) => km < bound) ?? null };
}
