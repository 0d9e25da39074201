import { index, integer, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { profiles } from "../profiles/schema.ts";

/** Spec §6 blocking: `blocker` no longer exists for `blocked` (profile ids; rows go with either profile). */
export const blocks = pgTable(
  "blocks",
  {
    blockerId: integer("blocker_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    blockedId: integer("blocked_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index("blocks_blocked").on(t.blockedId, t.blockerId)],
);
