import { index, integer, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { profiles } from "../profiles/schema.ts";

/**
 * Issue #29, profile visitors ("who viewed me"): one row per visitor and visited profile with the time of
 * the latest visit (README: renewed at most once an hour, kept VISIT_RETENTION_DAYS). Rows go with
 * either profile, and a block deletes the pair's rows both ways.
 */
export const profileVisits = pgTable(
  "profile_visits",
  {
    visitedId: integer("visited_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    visitorId: integer("visitor_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    visitedAt: timestamp("visited_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The upsert of the profile-view path, and the pair's rows a block deletes.
    primaryKey({ columns: [t.visitedId, t.visitorId] }),
    // The visitors page, newest first, and its count.
    index("profile_visits_newest").on(t.visitedId, t.visitedAt.desc(), t.visitorId),
    // The daily purge of visits past the retention window.
    index("profile_visits_time").on(t.visitedAt),
  ],
);

/**
 * Issue #29, the "new visitors" badge: when the member last opened /visitors. Visits after it are new
 * (a renewed visit counts again: the visitor came back); no row = never opened, every visit is new.
 */
export const visitorsSeen = pgTable("visitors_seen", {
  profileId: integer("profile_id")
    .primaryKey()
    .references(() => profiles.id, { onDelete: "cascade" }),
  seenAt: timestamp("seen_at", { withTimezone: true }).notNull(),
});
