import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { profiles } from "../profiles/schema.ts";

/**
 * A like from one profile to another (spec §4). Two likes the other way round are a match: both rows
 * then carry `matched_at`, set once under the pair's lock (decision 019). `seen` is the receiver's
 * new-like flag (spec §4: opening the liker's profile clears it). Rows go with either profile.
 */
export const likes = pgTable(
  "likes",
  {
    likerId: integer("liker_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    likedId: integer("liked_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The liked member has opened the liker's profile since (false: a new like, `like_new`). */
    seen: boolean("seen").notNull().default(false),
    /** When the pair became mutual (the second like); null while one-sided. */
    matchedAt: timestamp("matched_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.likerId, t.likedId] }),
    // Received and matches tabs, new first then latest; the counts read only the index.
    index("likes_received").on(t.likedId, t.seen, t.createdAt.desc(), t.likerId, t.matchedAt),
    // Matches tab, new first then the latest match.
    index("likes_matches").on(t.likedId, t.seen, t.matchedAt.desc(), t.likerId).where(sql`${t.matchedAt} is not null`),
    // Sent tab, latest first.
    index("likes_sent").on(t.likerId, t.createdAt.desc(), t.likedId, t.matchedAt),
  ],
);

/**
 * The swipe game's day per member (decision 019): the window of their current local day, its counters
 * (kept under this row's lock, so concurrent swipes cannot pass a limit) and the time zone that
 * decides the next window.
 */
export const swipeDays = pgTable("swipe_days", {
  profileId: integer("profile_id")
    .primaryKey()
    .references(() => profiles.id, { onDelete: "cascade" }),
  timeZone: text("time_zone").notNull(),
  /** When the time zone last changed (a change applies from the next day, at most one a week). */
  timeZoneChangedAt: timestamp("time_zone_changed_at", { withTimezone: true }),
  dayStart: timestamp("day_start", { withTimezone: true }).notNull(),
  dayEnd: timestamp("day_end", { withTimezone: true }).notNull(),
  swipes: integer("swipes").notNull().default(0),
  likes: integer("likes").notNull().default(0),
});

/** Swipes of the game (a pass or a like), the latest per pair: passed today means not shown again today. */
export const swipes = pgTable(
  "swipes",
  {
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    targetId: integer("target_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    liked: boolean("liked").notNull(),
    swipedAt: timestamp("swiped_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.targetId] })],
);

/** The last automatic like each member got (decision 019: at most one a day). */
export const autoLikes = pgTable("auto_likes", {
  profileId: integer("profile_id")
    .primaryKey()
    .references(() => profiles.id, { onDelete: "cascade" }),
  lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
});
