import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/**
 * Every change of a member's credits, with the balance after it. The balance itself is
 * users.credits (read on every request); only this module writes it, in the same transaction as
 * the ledger row, so the two never disagree.
 */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    /** What the change was for: signup_bonus, purchase, message, photo, gift, refund, ... */
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("credit_ledger_user").on(t.userId, t.id),
    check("credit_ledger_balance_nonnegative", sql`${t.balanceAfter} >= 0`),
  ],
);
