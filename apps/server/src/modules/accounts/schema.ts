import { BAN_REASONS } from "@app/contract";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { inList } from "../../platform/db/check.ts";

export const userStatus = pgEnum("user_status", ["not_confirmed", "active", "pending_deletion"]);

/**
 * A member's account. Fictional (demo) members have no password and cannot log in. Credits and the
 * premium flag belong to the credits module (credit_accounts, decision 015).
 */
export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    /** Lower-cased on write; unique. Null for fictional members. */
    email: text("email"),
    passwordHash: text("password_hash"),
    status: userStatus("status").notNull().default("not_confirmed"),
    language: text("language").notNull().default("en"),
    /** Notification categories switched off, each with its reason (user, fbl, bounce, listunsubscribe). */
    notificationsDisabled: jsonb("notifications_disabled").notNull().default(sql`'[]'::jsonb`),
    /**
     * When the member agreed to promotional e-mails (issue #28: promotions only with consent). Null: no
     * consent, so the promotions category is off without being in notifications_disabled (which spec §2's
     * activation reminder reads as "some e-mails are off").
     */
    promotionsConsentAt: timestamp("promotions_consent_at", { withTimezone: true }),
    invisible: boolean("invisible").notNull().default(false),
    /**
     * Issue #29: the member hides their online status and last activity ("online", "active today",
     * "active this week") from others, and in return sees no one's (presenceShownCondition).
     */
    hidePresence: boolean("hide_presence").notNull().default(false),
    fictional: boolean("fictional").notNull().default(false),
    signupDate: timestamp("signup_date", { withTimezone: true }).notNull().defaultNow(),
    deletionRequestedAt: timestamp("deletion_requested_at", { withTimezone: true }),
    /**
     * The status a pending deletion replaced, which a reactivation restores (issue #29: an account that
     * never confirmed its address comes back not_confirmed). Null when no deletion is pending.
     */
    statusBeforeDeletion: userStatus("status_before_deletion"),
    /**
     * The end of the ban in force (member_bans), 'infinity' for one without an end; null when not banned.
     * A ban ends by itself when this passes (the rules compare with now()); a job clears it afterwards.
     */
    bannedUntil: timestamp("banned_until", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    // Support finds members by the start of their e-mail address: LIKE 'prefix%' and the order, both in
    // the C collation, read from this index (whatever the database's own collation).
    index("users_email_prefix").on(sql`${t.email} collate "C"`),
    // The few members others may not see (visibleUserCondition): invisible, leaving, or banned.
    index("users_hidden").on(t.id).where(sql`${t.invisible} or ${t.status} = 'pending_deletion' or ${t.bannedUntil} is not null`),
    // The few members whose presence others may not see (presenceShownCondition): invisible or hiding it.
    index("users_presence_hidden").on(t.id).where(sql`${t.invisible} or ${t.hidePresence}`),
    check("users_email_lowercase", sql`${t.email} = lower(${t.email})`),
  ],
);

/**
 * Login sessions. The cookie carries a random 256-bit token; only its SHA-256 is stored, so a leaked
 * table gives no usable cookie.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /**
     * The ban that ended this session (member_bans.id): the session no longer logs anyone in, but its
     * cookie still tells /pages/ban whose ban to show (reason and end) while that ban is in force.
     */
    endedByBan: integer("ended_by_ban").references((): AnyPgColumn => memberBans.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("sessions_token_unique").on(t.tokenHash), index("sessions_user").on(t.userId)],
);

export const accountTokenKind = pgEnum("account_token_kind", ["activation", "reset_password", "mail_change", "reactivation"]);

/** Single-use, expiring links sent by e-mail; stored hashed like sessions. */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: accountTokenKind("kind").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The new address of a mail change. */
    newEmail: text("new_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("account_tokens_hash_unique").on(t.tokenHash), index("account_tokens_user").on(t.userId, t.kind)],
);

/**
 * Wrong passwords, per account and client address: a lock applies only to the address that failed,
 * so an attacker elsewhere cannot lock the owner out.
 */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    address: text("address").notNull(),
    failedAt: timestamp("failed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("login_failures_lookup").on(t.email, t.address, t.failedAt)],
);

/**
 * The first message written in the signup form on a member's profile (/members/{id}/signup). The chat
 * module delivers it once messaging exists for the new member (after the e-mail address is confirmed).
 */
export const signupMessages = pgTable(
  "signup_messages",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The profile it is addressed to (a profiles row; no foreign key across modules). */
    toProfileId: integer("to_profile_id").notNull(),
    text: text("text").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Sent through the chat, or dropped because its profile could no longer be reached. */
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [index("signup_messages_undelivered").on(t.userId).where(sql`${t.deliveredAt} is null`)],
);

/**
 * Browsers where a member has logged in (OWASP "device cookies"): the account-wide login throttle
 * slows guesses from everywhere else, but never the owner's own browser, so an outsider guessing
 * cannot lock the owner out. Stores only the SHA-256 of the cookie's token.
 */
export const loginDevices = pgTable(
  "login_devices",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("login_devices_token_unique").on(t.tokenHash), index("login_devices_user").on(t.userId)],
);

/**
 * Bans (issue #27): a reason from BAN_REASONS and an optional end (null: until lifted). One is in force
 * at a time per member (the newest, not lifted, not over); users.banned_until mirrors it for the
 * visibility rules. Staff ids are the staff module's accounts (no foreign key across modules).
 */
export const memberBans = pgTable(
  "member_bans",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    /** What staff noted for each other (never shown to the member). */
    note: text("note").notNull().default(""),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdBy: integer("created_by"),
    liftedAt: timestamp("lifted_at", { withTimezone: true }),
    liftedBy: integer("lifted_by"),
  },
  (t) => [
    index("member_bans_user").on(t.userId, t.createdAt),
    check("member_bans_reason_check", sql`${t.reason} in (${inList(BAN_REASONS)})`),
  ],
);

/**
 * Each login of a member (a password login, a signup, a password reset): when, from which address and
 * browser, for support's view of the member (issue #27). Written beside the session it starts.
 */
export const memberLogins = pgTable(
  "member_logins",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** password, signup, reset_password. */
    method: text("method").notNull(),
    address: text("address").notNull(),
    userAgent: text("user_agent").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("member_logins_user").on(t.userId, t.id)],
);
