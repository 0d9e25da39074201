import { bigint, index, integer, jsonb, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";

/**
 * Durable member events (platform/member-events.ts): each event for a member with its per-member
 * sequence number, kept a day so that a client that reconnects gets what it missed. Written in the
 * transaction of the change they announce. User ids carry no foreign key (the platform knows no
 * module's tables); rows of erased members go with the daily prune.
 *
 * Every send writes two rows, so each row keeps to one b-tree, its key (user_id, seq), which `since`
 * reads; the prune finds old rows through a BRIN index on created_at (rows are appended in time order),
 * which an insert into the table's last pages leaves as it is (decision 020, "Write cost").
 */
export const memberEvents = pgTable(
  "member_events",
  {
    userId: integer("user_id").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    event: jsonb("event").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "member_events_user_seq", columns: [t.userId, t.seq] }),
    index("member_events_created").using("brin", t.createdAt),
  ],
);

/** The latest sequence number of each member: a row lock serialises numbering per member. */
export const memberEventSeqs = pgTable("member_event_seqs", {
  userId: integer("user_id").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
});
