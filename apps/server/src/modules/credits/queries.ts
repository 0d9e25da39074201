import { and, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../platform/db/index.ts";
import { creditAccounts, creditLedger } from "./schema.ts";

export type LedgerRow = typeof creditLedger.$inferSelect;

/** Advisory lock namespace of one member's credit changes (see lockMemberCredits). */
const CREDITS_LOCK = 7_201_004;

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
  const result = await tx.execute(
    sql`with "debited" as (
          update ${creditAccounts} set "balance" = "balance" - ${row.amount}, "updated_at" = now()
          where "user_id" = ${row.userId} and "balance" - ${row.amount} >= 0
          returning "balance"
        )
        insert into ${creditLedger} ("user_id", "delta", "balance_after", "reason", "key")
        select ${row.userId}, ${-row.amount}, "balance", ${row.reason}, ${row.key ?? null} from "debited"
        returning "balance_after"`,
  );
  // Both drivers answer `{ rows }`.
  const [debited] = (result as unknown as { rows: { balance_after: number }[] }).rows;
  return debited ? Number(debited.balance_after) : null;
}

/**
 * A keyed debit as named CTEs (`credit_earlier`, `credit_debited`, `credit_written`) for a statement that
 * writes what it pays for beside it, under the member's credit lock (taken by an earlier statement, so
 * that this one's snapshot sees what a holder before us committed): the earlier change with this key, if
 * any (then nothing is written), else the debit and its ledger row when the balance covers it. `amount`
 * 0 (a free kind of send) writes a ledger row of 0, making the account if there is none, as `change`
 * does for a delta of 0.
 *
 * `done` is true when the key's change happened, now or earlier (what the caller's own writes wait
 * for); `balance` is the new balance, `earlier` the balance after the earlier change (each null otherwise).
 */
export interface LentDebit {
  ctes: SQL;
  done: SQL;
  balance: SQL;
  earlier: SQL;
}

export function keyedDebitCtes(row: {
  userId: number | Placeholder;
  amount: number | Placeholder;
  /** For a placeholder amount (a statement compiled once): whether it is above 0, which picks the statement's shape. */
  positive?: boolean;
  reason: string | Placeholder;
  key: string | Placeholder;
  when?: SQL | undefined;
}): LentDebit {
  let positive = row.positive;
  if (typeof row.amount === "number") {
    if (!Number.isSafeInteger(row.amount) || row.amount < 0)
      throw new Error(`debit must be a whole amount >= 0, got ${row.amount}`);
    positive = row.amount > 0;
  }
  if (positive === undefined) throw new Error("a placeholder amount needs `positive`");
  // The caller's own condition (its checks, in the same statement): without it nothing is debited or done.
  const when = row.when ? sql` and ${row.when}` : sql``;
  const debited = positive
    ? sql`update ${creditAccounts} set "balance" = "balance" - ${row.amount}::int, "updated_at" = now()
          where "user_id" = ${row.userId}::int and "balance" - ${row.amount}::int >= 0 and not exists (select 1 from "credit_earlier")${when}
          returning "balance"`
    : sql`insert into ${creditAccounts} ("user_id", "balance") select ${row.userId}::int, 0 where not exists (select 1 from "credit_earlier")${when}
          on conflict ("user_id") do update set "updated_at" = now()
          returning "balance"`;
  return {
    ctes: sql`"credit_earlier" as (
          select "balance_after" from ${creditLedger} where "user_id" = ${row.userId}::int and "key" = ${row.key}::text limit 1
        ), "credit_debited" as (${debited}), "credit_written" as (
          insert into ${creditLedger} ("user_id", "delta", "balance_after", "reason", "key")
          select ${row.userId}::int, -(${row.amount}::int), "balance", ${row.reason}::text, ${row.key}::text from "credit_debited"
          returning "balance_after"
        )`,
    done: sql`(${row.when ?? sql`true`} and (exists (select 1 from "credit_written") or exists (select 1 from "credit_earlier")))`,
    balance: sql`(select "balance_after" from "credit_written")`,
    earlier: sql`(select "balance_after" from "credit_earlier")`,
  };
}

/** Reads the balances a LentDebit's statement answered as `earlier` and `balance`. */
export function debitOutcome(row: { earlier?: unknown; balance?: unknown } | undefined): {
  earlier: number | null;
  balance: number | null;
} {
  return {
    earlier: row?.earlier == null ? null : Number(row.earlier),
    balance: row?.balance == null ? null : Number(row.balance),
  };
}

/** keyedDebitCtes on its own: one statement answering the earlier balance, or the new one, or neither. */
export async function keyedDebitWithLedgerRow(
  tx: DbOrTx,
  row: { userId: number; amount: number; reason: string; key: string },
): Promise<{ earlier: number | null; balance: number | null }> {
  const debit = keyedDebitCtes(row);
  const result = await tx.execute(sql`with ${debit.ctes} select ${debit.earlier} as "earlier", ${debit.balance} as "balance"`);
  return debitOutcome((result as unknown as { rows: { earlier: unknown; balance: unknown }[] }).rows[0]);
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
  const result = await tx.execute(
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
  const [taken] = (result as unknown as { rows: { taken: number; balance: number }[] }).rows;
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
 * a replay running at the same moment sees the first one's ledger row instead of debiting again.
 */
export async function lockMemberCredits(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`select ${memberCreditsLock(userId)}`);
}

/** The lock of lockMemberCredits as an expression, for a caller that takes it with locks of its own. */
export function memberCreditsLock(userId: number | Placeholder): SQL {
  return sql`pg_advisory_xact_lock(${CREDITS_LOCK}::int, ${userId}::int)`;
}

export async function ledgerOf(db: DbOrTx, userId: number): Promise<LedgerRow[]> {
  return db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.id);
}
