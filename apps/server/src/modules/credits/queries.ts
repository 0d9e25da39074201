import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type DbOrTx, rowsOf } from "../../platform/db/index.ts";
import { creditAccounts, creditLedger } from "./schema.ts";

export type LedgerRow = typeof creditLedger.$inferSelect;

/**
 * Lent expressions for the member context: the balance and the premium flag of the member in a user id
 * column, 0 and false for a member without a credit account. Index lookups on the primary key.
 */
export function creditColumnsOfUser(userId: SQL): { credits: SQL<number>; paid: SQL<boolean> } {
  const a = alias(creditAccounts, "member_credits");
  const from = sql`from ${creditAccounts} as ${sql.identifier("member_credits")} where ${a.userId} = ${userId}`;
  return {
    credits: sql<number>`coalesce((select ${a.balance} ${from}), 0)`,
    paid: sql<boolean>`coalesce((select ${a.paidUser} ${from}), false)`,
  };
}

/**
 * Adds `delta` (>= 0) to a balance, making the member's credit account when it has none. Returns the
 * balance after it.
 */
export async function addToBalance(tx: DbOrTx, userId: number, delta: number): Promise<number> {
  const [row] = await tx
    .insert(creditAccounts)
    .values({ userId, balance: delta })
    .onConflictDoUpdate({
      target: creditAccounts.userId,
      set: { balance: sql`${creditAccounts.balance} + excluded.balance`, updatedAt: sql`now()` },
    })
    .returning({ balance: creditAccounts.balance });
  if (!row) throw new Error("credit account upsert returned nothing");
  return row.balance;
}

/**
 * Takes `amount` (> 0) off a balance unless that would go below zero (then: null) and writes its ledger
 * row, in one statement (a debit is the hot path of every paid message).
 */
export async function debitWithLedgerRow(
  tx: DbOrTx,
  row: { userId: number; amount: number; reason: string; key?: string | undefined },
): Promise<number | null> {
  const [debited] = await rowsOf<{ balance_after: number }>(
    tx,
    sql`with "debited" as (
          update ${creditAccounts} set "balance" = "balance" - ${row.amount}, "updated_at" = now()
          where "user_id" = ${row.userId} and "balance" - ${row.amount} >= 0
          returning "balance"
        )
        insert into ${creditLedger} ("user_id", "delta", "balance_after", "reason", "key")
        select ${row.userId}, ${-row.amount}, "balance", ${row.reason}, ${row.key ?? null} from "debited"
        returning "balance_after"`,
  );
  return debited ? Number(debited.balance_after) : null;
}

/**
 * A keyed debit through the credits' own SQL function (migration 0023, `credits_keyed_debit`): the
 * earlier change with this key, if any (then nothing is written), else the debit of `amount` (>= 0) and
 * its ledger row when the balance covers it. The caller holds the member's credit lock.
 */
export async function keyedDebitWithLedgerRow(
  tx: DbOrTx,
  row: { userId: number; amount: number; reason: string; key: string },
): Promise<{ earlier: number | null; balance: number | null }> {
  if (!Number.isSafeInteger(row.amount) || row.amount < 0)
    throw new Error(`debit must be a whole amount >= 0, got ${row.amount}`);
  const [answer] = await rowsOf<{ replayed_balance: number | null; new_balance: number | null }>(
    tx,
    sql`select "replayed_balance", "new_balance" from credits_keyed_debit(${row.userId}::int, ${row.amount}::int, ${row.reason}::text, ${row.key}::text)`,
  );
  return {
    earlier: answer?.replayed_balance == null ? null : Number(answer.replayed_balance),
    balance: answer?.new_balance == null ? null : Number(answer.new_balance),
  };
}

/**
 * Takes up to `upTo` (> 0) credits off a balance, never below zero, and writes its ledger row, in one
 * statement; returns what was taken and the balance after (both 0 without a credit account). Nothing is
 * written when there is nothing to take.
 */
export async function takeBackWithLedgerRow(
  tx: DbOrTx,
  row: { userId: number; upTo: number; reason: string; key?: string | undefined },
): Promise<{ taken: number; balance: number }> {
  const [taken] = await rowsOf<{ taken: number; balance: number }>(
    tx,
    sql`with "before" as (
          select "balance" from ${creditAccounts} where "user_id" = ${row.userId} for update
        ), "taken" as (
          update ${creditAccounts} set "balance" = ${creditAccounts.balance} - least(${creditAccounts.balance}, ${row.upTo}), "updated_at" = now()
          from "before"
          where ${creditAccounts.userId} = ${row.userId} and "before"."balance" > 0
          returning "before"."balance" - ${creditAccounts.balance} as "taken", ${creditAccounts.balance} as "balance"
        ), "ledger" as (
          insert into ${creditLedger} ("user_id", "delta", "balance_after", "reason", "key")
          select ${row.userId}, -"taken", "balance", ${row.reason}, ${row.key ?? null} from "taken"
        )
        select "taken", "balance" from "taken"`,
  );
  return taken ? { taken: Number(taken.taken), balance: Number(taken.balance) } : { taken: 0, balance: 0 };
}

export async function setPaidUser(tx: DbOrTx, userId: number): Promise<void> {
  await tx
    .insert(creditAccounts)
    .values({ userId, paidUser: true })
    .onConflictDoUpdate({ target: creditAccounts.userId, set: { paidUser: true, updatedAt: sql`now()` } });
}

export async function findCreditAccount(db: DbOrTx, userId: number): Promise<{ credits: number; paid: boolean }> {
  const [row] = await db
    .select({ credits: creditAccounts.balance, paid: creditAccounts.paidUser })
    .from(creditAccounts)
    .where(eq(creditAccounts.userId, userId))
    .limit(1);
  return row ?? { credits: 0, paid: false };
}

export async function insertLedgerRow(
  tx: DbOrTx,
  row: { userId: number; delta: number; balanceAfter: number; reason: string; key?: string | undefined },
): Promise<void> {
  await tx.insert(creditLedger).values(row);
}

/** The ledger row an earlier change with this key wrote, if any. */
export async function findKeyedLedgerRow(db: DbOrTx, userId: number, key: string): Promise<LedgerRow | undefined> {
  const [row] = await db
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.key, key)))
    .limit(1);
  return row;
}

/**
 * Makes keyed changes of one member wait for each other until the holder's transaction ends, so that
 * a replay running at the same moment sees the first one's ledger row instead of debiting again
 * (`credits_lock`, migration 0023: the chat send takes the same lock in its function).
 */
export async function lockMemberCredits(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`select credits_lock(${userId}::int)`);
}

export async function ledgerOf(db: DbOrTx, userId: number): Promise<LedgerRow[]> {
  return db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.id);
}

export async function latestLedgerOf(db: DbOrTx, userId: number, limit: number): Promise<LedgerRow[]> {
  return db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(desc(creditLedger.id)).limit(limit);
}
