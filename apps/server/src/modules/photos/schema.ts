import { sql } from "drizzle-orm";
import { boolean, index, integer, pgEnum, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { moderationReason, profiles } from "../profiles/schema.ts";

export const photoStatus = pgEnum("photo_status", ["pending", "active", "rejected"]);

/**
 * A member's photo. Files are named by random keys (never guessable from ids) and only served through
 * the access-checked /cdn/ route. One photo per profile may be the main image.
 */
export const photos = pgTable(
  "photos",
  {
    id: serial("id").primaryKey(),
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    thumbFilename: text("thumb_filename").notNull(),
    status: photoStatus("status").notNull().default("pending"),
    isMain: boolean("is_main").notNull().default(false),
    /** Premium-only: others without premium see a server-blurred copy. */
    private: boolean("private").notNull().default(false),
    position: integer("position").notNull().default(0),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Waits in the staff's review queue (issue #27): new uploads; seeded and earlier photos do not. */
    reviewPending: boolean("review_pending").notNull().default(false),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    /** Why a moderator rejected it (status rejected); the member reads it in their language. */
    rejectionReason: moderationReason("rejection_reason"),
  },
  (t) => [
    index("photos_profile").on(t.profileId, t.position),
    uniqueIndex("photos_one_main").on(t.profileId).where(sql`${t.isMain}`),
    uniqueIndex("photos_filename_unique").on(t.filename),
    // The review queue, oldest first.
    index("photos_review_queue").on(t.createdAt, t.id).where(sql`${t.reviewPending}`),
  ],
);
