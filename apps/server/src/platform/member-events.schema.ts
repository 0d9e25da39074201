import { bigint, bigserial, index, integer, jsonb, pgTable, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Durable member events (platform/member-events.ts): each event for a member with its per-member
 * sequence number, kept a day so that a client that reconnects gets what it missed. Written in the
 * transaction of the change they announce. User ids carry no foreign key (the platform knows no
 * module's tables); rows of erased members go with the daily prune.
 */
export const memberEvents = pgTable(
  "member_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    event: jsonb("event").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("member_events_user_seq").on(t.userId, t.seq), index("member_events_created").on(t.createdAt)],
);

/** The latest sequence number of each member: a row lock serialises numbering per member. */
export const memberEventSeqs = pgTable("member_event_seqs", {
  userId: integer("user_id").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
});
