import type { SQL } from "drizzle-orm";
import { type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import type { Db, DbOrTx, Tx } from "../../platform/db/index.ts";
import {
  addToBalance,
  creditColumnsOfUser,
  debitWithLedgerRow,
  findCreditAccount,
  findKeyedLedgerRow,
  insertLedgerRow,
  keyedDebitWithLedgerRow,
  type LedgerRow,
  latestLedgerOf,
  ledgerOf,
  lockMemberCredits,
  setPaidUser,
  takeBackWithLedgerRow,
} from "./queries.ts";

export interface CreditChangeInput {
  userId: number;
  /** Credits to add (> 0) or take (< 0). */
  delta: number;
  /** What the change is for: signup_bonus, purchase, message, photo, gift, refund, ... */
  reason: string;
  /**
   * Idempotency key, unique per member: a change replayed with a key already in the ledger changes
   * nothing and answers what the first one did (a retried request, a provider's repeated webhook).
   */
  key?: string;
}

export interface CreditChange {
  /** The balance after the change. */
  balance: number;
  /** True when the key was already used: this call changed nothing. */
  replayed: boolean;
}

/** A keyed debit's outcome as a CreditChange: the earlier change's balance on a replay, null when not covered. */
function keyedChange(debit: { earlier: number | null; balance: number | null }): CreditChange | null {
  if (debit.earlier !== null) return { balance: debit.earlier, replayed: true };
  return debit.balance === null ? null : { balance: debit.balance, replayed: false };
}

/**
 * The credits module's public face: the only writer of balances, premium flags and the ledger
 * (decision 015). Every change is a ledger row written in the caller's transaction, with what it pays for.
 */
export class CreditService {
  /**
   * Changes a balance by `delta` and writes the ledger row inside the caller's transaction `tx`, so the
   * change commits with what it pays for. A debit that would go below zero changes nothing and returns
   * null, whatever runs concurrently. With a `key`, the change is made at most once per member.
   * Expects READ COMMITTED (the default): a replay waiting on the first call then sees its ledger row.
   */
  async change(tx: Tx, input: CreditChangeInput): Promise<CreditChange | null> {
    const { userId, delta, reason, key } = input;
    if (!Number.isSafeInteger(delta)) throw new Error(`credit delta must be an integer, got ${delta}`);
    if (key !== undefined) {
      await lockMemberCredits(tx, userId);
      if (delta < 0) {
        // The usual keyed change, a paid message: the replay check and the debit in one statement.
        return keyedChange(await keyedDebitWithLedgerRow(tx, { userId, amount: -delta, reason, key }));
      }
      const earlier = await findKeyedLedgerRow(tx, userId, key);
      if (earlier) return { balance: earlier.balanceAfter, replayed: true };
    }
    if (delta < 0) {
      const balance = await debitWithLedgerRow(tx, { userId, amount: -delta, reason, key });
      return balance === null ? null : { balance, replayed: false };
    }
    const balance = await addToBalance(tx, userId, delta);
    await insertLedgerRow(tx, { userId, delta, balanceAfter: balance, reason, key });
    return { balance, replayed: false };
  }

  /**
   * Takes back up to `upTo` credits (a refund or chargeback of credits partly spent): what is still on
   * the balance, never below zero, whatever spends run at the same moment (they wait on the balance row).
   * With a `key`, at most once per member; a replay answers `taken: 0`.
   */
  async takeBack(
    tx: Tx,
    input: { userId: number; upTo: number; reason: string; key: string },
  ): Promise<{ taken: number; balance: number; replayed: boolean }> {
    if (!Number.isSafeInteger(input.upTo) || input.upTo <= 0)
      throw new Error(`take-back must be a positive integer, got ${input.upTo}`);
    await lockMemberCredits(tx, input.userId);
    const earlier = await findKeyedLedgerRow(tx, input.userId, input.key);
    if (earlier) return { taken: 0, balance: earlier.balanceAfter, replayed: true };
    return { ...(await takeBackWithLedgerRow(tx, input)), replayed: false };
  }

  /** A change on its own: opens its own transaction for the balance and the ledger row. */
  changeNow(db: Db, input: CreditChangeInput): Promise<CreditChange | null> {
    return db.transaction((tx) => this.change(tx, input));
  }

  /**
   * Makes a member premium for life (spec §1: any credit purchase does). The payments module calls it
   * in the purchase's transaction; the seed uses it for the premium demo account.
   */
  async grantPremium(tx: DbOrTx, userId: number): Promise<void> {
    await setPaidUser(tx, userId);
  }

  /** A member's balance and premium flag (0 and false without a credit account). */
  account(db: DbOrTx, userId: number): Promise<{ credits: number; paid: boolean }> {
    return findCreditAccount(db, userId);
  }

  /**
   * Lent SQL for another module's query (the session's one query): the balance and the premium flag
   * of the member in a user id column.
   */
  memberColumns(userId: SQL): { credits: SQL<number>; paid: SQL<boolean> } {
    return creditColumnsOfUser(userId);
  }

  ledger(db: DbOrTx, userId: number): Promise<LedgerRow[]> {
    return ledgerOf(db, userId);
  }

  /**
   * The credits' part of the data export (issue #27): the balance, premium, and every change with what
   * it paid for (not the idempotency keys: those are the site's bookkeeping).
   */
  async exportFor(db: DbOrTx, { userId }: ExportSubject): Promise<ExportPart> {
    const [account, ledger] = await Promise.all([findCreditAccount(db, userId), ledgerOf(db, userId)]);
    return {
      json: {
        credits: {
          balance: account.credits,
          premium: account.paid,
          ledger: ledger.map((row) => ({
            delta: row.delta,
            balance_after: row.balanceAfter,
            reason: row.reason,
            at: isoOrNull(row.createdAt),
          })),
        },
      },
    };
  }

  /** The member's latest `limit` ledger rows, latest first (support's view, issue #27). */
  latestLedger(db: DbOrTx, userId: number, limit: number): Promise<LedgerRow[]> {
    return latestLedgerOf(db, userId, limit);
  }
}
