import { z } from "zod";
import { idQueryValueSchema, idSchema, optionalInt } from "./http.ts";
import { INTEREST_KEYS } from "./interests.ts";
import { LIMITS } from "./limits.ts";
import { teaserProfileSchema } from "./site.ts";

/**
 * Likes (spec §3, §4, §7, §9). A like goes from one member's profile to another's; two likes the other
 * way round are a match. States as one member sees another (spec §4): `none`, `liked` (I liked them),
 * `received` (they liked me), `match` (both).
 */
export const LIKE_STATES = ["none", "liked", "received", "match"] as const;
export const likeStateSchema = z.enum(LIKE_STATES);
export type LikeState = z.infer<typeof likeStateSchema>;

/** The tabs of /likes/{type}; /likes is `received`. */
export const LIKE_TYPES = ["received", "sent", "matches"] as const;
export const likeTypeSchema = z.enum(LIKE_TYPES);
export type LikeType = z.infer<typeof likeTypeSchema>;

/** Cards per page of GET /api/likes.php. */
export const LIKES_PAGE_SIZE = 24;

/** One card of the likes overview: the teaser plus the like between us. */
export const likeCardSchema = teaserProfileSchema.extend({
  like: likeStateSchema,
  /** They liked me and I have not opened their profile since (received and match tabs only). */
  like_new: z.boolean(),
  /** ISO 8601: when the like this tab lists was made (theirs for received, mine for sent, the second for matches). */
  liked_at: z.string(),
});
export type LikeCard = z.infer<typeof likeCardSchema>;

/** Spec §3: each liked_by entry has id and like_new. */
export const likedBySchema = z.object({ id: z.number().int(), like_new: z.boolean() });
export type LikedBy = z.infer<typeof likedBySchema>;

export const likeCountsSchema = z.object({
  received: z.number().int().nonnegative(),
  sent: z.number().int().nonnegative(),
  matches: z.number().int().nonnegative(),
  /** Received likes not yet opened: the new-likes badge. */
  new: z.number().int().nonnegative(),
});
export type LikeCounts = z.infer<typeof likeCountsSchema>;

/** GET /api/likes.php?type=&page=: one tab of the overview, new likes first, then the latest. */
export const likesQuerySchema = z.object({
  type: z.preprocess((v) => (v === "" ? undefined : v), likeTypeSchema.default("received")),
  page: optionalInt(1, 10_000),
});
export type LikesQuery = z.input<typeof likesQuerySchema>;
export const likesResponseSchema = z.object({
  type: likeTypeSchema,
  /** The cards of this page. */
  profiles: z.array(likeCardSchema),
  /** Spec §3: who among `profiles` liked me, with the new flag. */
  liked_by: z.array(likedBySchema),
  counts: likeCountsSchema,
  page: z.number().int().positive(),
  pages: z.number().int().nonnegative(),
});
export type LikesResponse = z.infer<typeof likesResponseSchema>;

/**
 * The profile a pop-up shows: the match modal ("New like", spec §2/§4) and the auto-like. `match_url`
 * is the main image's match path (spec §3): the full-size active image, null without one.
 */
export const likePopupProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  fictional: z.boolean(),
  main_image: z.object({ thumb_url: z.string(), match_url: z.string() }).nullable(),
});
export type LikePopupProfile = z.infer<typeof likePopupProfileSchema>;

/** POST /api/like.php `{ id }` likes a profile; DELETE /api/like.php?id= takes the like back. */
export const likeRequestSchema = z.object({ id: idSchema }).strict();
export const likeQuerySchema = z.object({ id: idQueryValueSchema });
export const likeResponseSchema = z.object({
  id: z.number().int(),
  state: likeStateSchema,
  /** This like made the match just now (exactly once per pair): show the match pop-up with this profile. */
  match: likePopupProfileSchema.nullable(),
});
export type LikeResponse = z.infer<typeof likeResponseSchema>;

/** GET /api/auto-like.php: a fictional profile that has just liked the member, or null (decision 019). */
export const autoLikeResponseSchema = z.object({ profile: likePopupProfileSchema.nullable() });
export type AutoLikeResponse = z.infer<typeof autoLikeResponseSchema>;
export { AUTO_LIKE_RELOAD_MS } from "./likes-constants.ts";

/**
 * The swipe game (spec §8, §9). Free members have LIMITS.swipeLikesPerDay likes a day in the game,
 * premium members no like limit; everyone has SWIPES_PER_DAY swipes (likes and passes) a day, so that
 * the game cannot be used to walk the whole member base. The day is the member's local day.
 */
export const SWIPES_PER_DAY = 100;
export const SWIPE_BATCH = 10;
export const swipeCardSchema = teaserProfileSchema.extend({
  about: z.string(),
  interests: z.array(z.enum(INTEREST_KEYS)),
  /** The full-size main image; null without one. */
  image_url: z.string().nullable(),
});
export type SwipeCard = z.infer<typeof swipeCardSchema>;
export const swipeStatusSchema = z.object({
  swipes_left: z.number().int().nonnegative(),
  /** Null: no like limit (premium). */
  likes_left: z.number().int().nonnegative().nullable(),
  /** ISO 8601: the start of the member's next local day, when both reset. */
  resets_at: z.string(),
  /** What is used up, if anything: the game then shows spec §8's message and the premium offer. */
  limit: z.enum(["swipes", "likes"]).nullable(),
});
export type SwipeStatus = z.infer<typeof swipeStatusSchema>;
/** The member's IANA time zone (the browser's), which decides their local day. */
export const timeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_+\-/]+$/);
export const swipeQuerySchema = z.object({ tz: timeZoneSchema.optional() });
export const swipeResponseSchema = z.object({ profiles: z.array(swipeCardSchema), status: swipeStatusSchema });
export type SwipeResponse = z.infer<typeof swipeResponseSchema>;
export const swipeRequestSchema = z.object({ id: idSchema, like: z.boolean(), tz: timeZoneSchema.optional() }).strict();
export const swipeResultSchema = z.object({
  state: likeStateSchema,
  match: likePopupProfileSchema.nullable(),
  status: swipeStatusSchema,
});
export type SwipeResult = z.infer<typeof swipeResultSchema>;

/** GET /api/badges.php: the top navigation's counts (spec §2); the unread badge is their sum. */
export const badgesResponseSchema = z.object({
  new_likes: z.number().int().nonnegative(),
  /** Unread messages in the member's listed conversations (the chat module's count). */
  unread_messages: z.number().int().nonnegative(),
  /** Profile visits since the member last opened /visitors (issue #29; the account menu's badge, not in the unread sum). */
  new_visitors: z.number().int().nonnegative().default(0),
});
export type BadgesResponse = z.infer<typeof badgesResponseSchema>;

/** Free members' likes a day in the swipe game, re-exported beside the other swipe constants. */
export const SWIPE_LIKES_PER_DAY = LIMITS.swipeLikesPerDay;
