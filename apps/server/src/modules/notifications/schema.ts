import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Member events that may become a notification (chat.message to the recipient, like.received, like.match
 * to the member who did not make it), written by `member_events_record` (migration 0032) in the
 * transaction of the event itself, so that none is lost and none is made twice. The drain job
 * (notifications.drain) leases rows, reads their events by (user_id, seq) from member_events, and
 * enqueues the notification jobs and deletes the rows in one transaction.
 * No foreign keys: the platform's member events know no module's tables.
 */
export const notificationQueue = pgTable("notification_queue", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  userId: integer("user_id").notNull(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** A drain's lease: the rows it decides on, no other node's until then (a crashed node's come back). */
  claimedUntil: timestamp("claimed_until", { withTimezone: true }),
});

/**
 * Every notification sent (push or e-mail): the unique `key` makes sure nothing is sent twice (a second
 * job, a second node); `job_id` lets the job that claimed a key retry its own unsent claim after a
 * crash; `clicked_at` records a push click (the e-mail fallback is then not sent). `subject` is what the
 * notification is about (a conversation id for messages, a profile id for likes and matches).
 */
export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").notNull(),
    /** A NotificationKind (message, like, match, reminder, ...). */
    kind: text("kind").notNull(),
    channel: text("channel", { enum: ["push", "email"] }).notNull(),
    key: text("key").notNull(),
    subject: integer("subject"),
    jobId: integer("job_id"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    clickedAt: timestamp("clicked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("notifications_key").on(t.key),
    // The per-member e-mail rate limit and the "push clicked?" look-up.
    index("notifications_user_created").on(t.userId, t.createdAt),
  ],
);

/**
 * Presence (README "Away or here"): a member is looking while `looking_until` is in the future. Socket
 * connects, the member's own actions and a visible page's poll set it LOOKING_TTL ahead (and `seen_at`),
 * socket pings extend it only while it holds and `seen_at` is recent, page-hidden and the last socket's
 * close clear it. One row per member, shared by all nodes.
 */
export const memberPresence = pgTable("member_presence", {
  userId: integer("user_id").primaryKey(),
  lookingUntil: timestamp("looking_until", { withTimezone: true }),
  /** The last sign of the member themself (a connect, an action, a visible page's poll); pings extend only near it. */
  seenAt: timestamp("seen_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The key unsubscribe tokens are signed with when APP_SECRET is not configured: made once, shared by every node. */
export const notificationKeys = pgTable("notification_keys", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
});
