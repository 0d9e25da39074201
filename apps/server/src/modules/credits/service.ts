import { eq, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { users } from "../accounts/schema.ts";
import { creditLedger } from "./schema.ts";

/** A database handle or an open transaction: credit changes join the caller's transaction. */
export type DbOrTx = Pick<Db, "insert" | "update" | "select" | "execute">;

export class CreditService {
  /**
   * Changes a balance by `delta` and writes the ledger row inside the caller's transaction `tx` (pass a
   * transaction, so the change commits with what it pays for); the update refuses to go below zero
   * (returns null then), whatever runs concurrently.
   */
  async change(tx: DbOrTx, input: { userId: number; delta: number; reason: string }): Promise<number | null> {
    const [row] = await tx
      .update(users)
      .set({ credits: sql`${users.credits} + ${input.delta}` })
      .where(sql`${users.id} = ${input.userId} and ${users.credits} + ${input.delta} >= 0`)
      .returning({ credits: users.credits });
    if (!row) return null;
    await tx
      .insert(creditLedger)
      .values({ userId: input.userId, delta: input.delta, balanceAfter: row.credits, reason: input.reason });
    return row.credits;
  }

  /** A change on its own: opens its own transaction for the balance and the ledger row. */
  changeNow(db: Db, input: { userId: number; delta: number; reason: string }): Promise<number | null> {
    return db.transaction((tx) => this.change(tx, input));
  }

  async ledger(db: DbOrTx, userId: number) {
    return db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.id);
  }
}
