import { sql } from "drizzle-orm";
import {
  bigserial,
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

export const staffRole = pgEnum("staff_role", ["admin", "moderator", "operator", "support"]);

/**
 * People who run the site (issue #27). Not members: their own table, sessions and cookie. Every account
 * has a TOTP secret from the start (two factors are not optional for staff), and ten one-time recovery
 * codes, stored as SHA-256 hashes (random 50-bit codes: a slow hash adds nothing an attacker with the
 * table would not already have).
 */
export const staffAccounts = pgTable(
  "staff_accounts",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: staffRole("role").notNull(),
    language: text("language").notNull().default("en"),
    passwordHash: text("password_hash").notNull(),
    /** Base32, as authenticator apps take it. */
    totpSecret: text("totp_secret").notNull(),
    /** The last TOTP step accepted: a code is used once (RFC 6238 §5.2). */
    totpLastStep: integer("totp_last_step").notNull().default(0),
    recoveryCodeHashes: jsonb("recovery_code_hashes").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("staff_accounts_email_unique").on(t.email),
    check("staff_accounts_email_lowercase", sql`${t.email} = lower(${t.email})`),
  ],
);

/** Staff sessions: the cookie's random token, stored as its SHA-256; they end after inactivity. */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    id: serial("id").primaryKey(),
    staffId: integer("staff_id")
      .notNull()
      .references(() => staffAccounts.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    address: text("address"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("staff_sessions_token_unique").on(t.tokenHash), index("staff_sessions_staff").on(t.staffId)],
);

/** Failed staff logins per account and client address (the lock applies to the failing address only). */
export const staffLoginFailures = pgTable(
  "staff_login_failures",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    address: text("address").notNull(),
    failedAt: timestamp("failed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("staff_login_failures_lookup").on(t.email, t.address, t.failedAt)],
);

/**
 * The audit log: every staff write, in the transaction of the write. Append-only: a trigger
 * (migration 0026) refuses UPDATE and DELETE. It names staff and members by id without foreign keys,
 * so that erasing a member or removing a staff account leaves the record of what was done.
 */
export const staffAudit = pgTable(
  "staff_audit",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    staffId: integer("staff_id"),
    /** Kept as it was at the time (the account may change or go). */
    staffEmail: text("staff_email").notNull(),
    action: text("action").notNull(),
    objectType: text("object_type").notNull(),
    objectId: text("object_id").notNull(),
    memberId: integer("member_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    address: text("address"),
  },
  (t) => [
    index("staff_audit_member").on(t.memberId, t.id).where(sql`${t.memberId} is not null`),
    index("staff_audit_staff").on(t.staffId, t.id),
  ],
);
