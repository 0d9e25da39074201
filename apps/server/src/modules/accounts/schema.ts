import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgEnum, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const userStatus = pgEnum("user_status", ["not_confirmed", "active", "pending_deletion"]);

/**
 * A member's account. Fictional (demo) members have no password and cannot log in. Credits are also
 * kept in a ledger (credits module); this column is the balance, never below zero.
 */
export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    /** Lower-cased on write; unique. Null for fictional members. */
    email: text("email"),
    passwordHash: text("password_hash"),
    status: userStatus("status").notNull().default("not_confirmed"),
    paidUser: boolean("paid_user").notNull().default(false),
    credits: integer("credits").notNull().default(0),
    language: text("language").notNull().default("en"),
    /** Notification categories switched off, each with its reason (user, fbl, bounce, listunsubscribe). */
    notificationsDisabled: jsonb("notifications_disabled").notNull().default(sql`'[]'::jsonb`),
    invisible: boolean("invisible").notNull().default(false),
    fictional: boolean("fictional").notNull().default(false),
    signupDate: timestamp("signup_date", { withTimezone: true }).notNull().defaultNow(),
    deletionRequestedAt: timestamp("deletion_requested_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    check("users_credits_nonnegative", sql`${t.credits} >= 0`),
    check("users_email_lowercase", sql`${t.email} = lower(${t.email})`),
  ],
);
