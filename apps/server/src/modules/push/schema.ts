import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/**
 * A member's push subscription on one device (issue #28; spec §3, §7): the push service's endpoint
 * (RFC 8030) and the keys the payload is encrypted for (RFC 8291). An endpoint belongs to one member at a
 * time: a browser that logs in as someone else moves it. Goes with the account.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    /** The subscription's P-256 public key, base64url (65 bytes). */
    p256dh: text("p256dh").notNull(),
    /** The 16-byte authentication secret, base64url. */
    auth: text("auth").notNull(),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The last time the device posted it (each logged-in visit does): the least recent is dropped first. */
    refreshedAt: timestamp("refreshed_at", { withTimezone: true }).notNull().defaultNow(),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }),
    /** Failed sends in a row (429, 5xx, no answer); reset by an accepted one. */
    failures: integer("failures").notNull().default(0),
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint_key").on(t.endpoint), index("push_subscriptions_user_idx").on(t.userId)],
);

/** Spec §8: the member refused the notification permission ('denied'); until a device subscribes. */
export const pushRefusals = pgTable("push_refusals", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which subscription accepted which push (its caller's idempotency key), so that a job that runs again
 * after a partial failure sends only to the devices that did not get it yet. Kept a day (a push lives 4 h).
 */
export const pushDeliveries = pgTable(
  "push_deliveries",
  {
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("push_deliveries_key").on(t.subscriptionId, t.key), index("push_deliveries_at_idx").on(t.at)],
);
