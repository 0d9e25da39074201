import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/**
 * A member's balance and premium flag (decision 015). Only this module writes it, in the same
 * transaction as the ledger row, so the two never disagree. A member without a row has 0 credits and
 * is not premium: the row is made by the first credit (the signup bonus, a purchase).
 */
export const creditAccounts = pgTable(
  "credit_accounts",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    balance: integer("balance").notNull().default(0),
    /** Premium for life after any credit purchase (spec §1: paid_user). */
    paidUser: boolean("paid_user").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("credit_accounts_balance_nonnegative", sql`${t.balance} >= 0`)],
);

/** Every change of a member's credits, with the balance after it. */
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
    /** The caller's idempotency key: a change replayed with the same key (per member) is made once. */
    key: text("key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("credit_ledger_user").on(t.userId, t.id),
    uniqueIndex("credit_ledger_user_key").on(t.userId, t.key).where(sql`${t.key} is not null`),
    check("credit_ledger_balance_nonnegative", sql`${t.balanceAfter} >= 0`),
  ],
);
