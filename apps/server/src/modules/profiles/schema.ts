import {
  BODY_TYPES,
  EYE_COLORS,
  GENDERS,
  HAIR_COLORS,
  MODERATION_REASONS,
  RELATIONSHIP_STATUSES,
  SEEKING,
  SEXUALITIES,
} from "@app/contract";
import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/** Value lists come from the contract, so the database, the API and the web share one definition. */
export const profileStatus = pgEnum("profile_status", ["active", "disabled"]);
export const gender = pgEnum("gender", GENDERS);
export const sexuality = pgEnum("sexuality", SEXUALITIES);
export const seeking = pgEnum("seeking", SEEKING);
export const hairColor = pgEnum("hair_color", HAIR_COLORS);
export const eyeColor = pgEnum("eye_color", EYE_COLORS);
export const bodyType = pgEnum("body_type", BODY_TYPES);
export const relationshipStatus = pgEnum("relationship_status", RELATIONSHIP_STATUSES);
/** Why a photo or an about text was rejected (issue #27); the photos module's table uses it too. */
export const moderationReason = pgEnum("moderation_reason", MODERATION_REASONS);

/** What a member shows of themselves. Coordinates are private: never sent to another member. */
export const profiles = pgTable(
  "profiles",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: profileStatus("status").notNull().default("active"),
    name: text("name").notNull(),
    gender: gender("gender").notNull(),
    sexuality: sexuality("sexuality").notNull().default("hetero"),
    /** Whom the member is looking for. */
    seeking: seeking("seeking").notNull().default("both"),
    birthDate: date("birth_date", { mode: "string" }).notNull(),
    country: text("country").notNull(),
    region: text("region"),
    city: text("city"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    hairColor: hairColor("hair_color"),
    eyeColor: eyeColor("eye_color"),
    bodyType: bodyType("body_type"),
    relationshipStatus: relationshipStatus("relationship_status"),
    tattoos: boolean("tattoos"),
    interests: text("interests").array().notNull().default(sql`'{}'::text[]`),
    /** The about text others see: the last approved one, or (a site reviewing after) the one in review. */
    about: text("about").notNull().default(""),
    /** The last approved about text (issue #27): what a rejected text reverts to. */
    aboutApproved: text("about_approved").notNull().default(""),
    /** The about text waiting for review, null when none waits. */
    aboutReview: text("about_review"),
    aboutSubmittedAt: timestamp("about_submitted_at", { withTimezone: true }),
    /** Why the member's last about text was rejected, until they write another. */
    aboutRejection: moderationReason("about_rejection"),
    fictional: boolean("fictional").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("profiles_user_unique").on(t.userId),
    // The few profiles nobody may see (hiddenProfileIds).
    index("profiles_inactive").on(t.id).where(sql`${t.status} <> 'active'`),
    // Counting a search (decision 018): every filter and what the visibility and block checks need are in
    // the index, so the count never reads the table.
    index("profiles_search").on(t.status, t.country, t.gender, t.birthDate, t.userId, t.id),
    // profiles_nearby (migration 0036, custom SQL: drizzle's builder has no INCLUDE): the same keys with the
    // card's and the nearby order's columns included, so the search's nearby sort reads only the index.
    // Lists newest first (decision 018): one gender and country read in order, the age checked inside
    // the index; the second serves lists over several countries or both genders, and the teaser.
    index("profiles_listed_recent").on(t.status, t.gender, t.country, t.createdAt, t.id, t.birthDate),
    index("profiles_listed_all_recent").on(t.status, t.createdAt, t.id),
    // The review queue of about texts, oldest first.
    index("profiles_about_review_queue").on(t.aboutSubmittedAt, t.id).where(sql`${t.aboutReview} is not null`),
    // Support finds members by the start of their name, whatever its case (LIKE and order in the C collation).
    index("profiles_name_prefix").on(sql`lower(${t.name}) collate "C"`),
  ],
);
