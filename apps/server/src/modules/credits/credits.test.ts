import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database, Tx } from "../../platform/db/index.ts";
import { uniqueEmail } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp, usingPostgres } from "../../test/harness.ts";
import type { CreditService } from "./service.ts";

let database: TestDatabase;
/** A second pool with one connection per concurrent spend (PostgreSQL); on PGlite the one client. */
let pool: Database;
let app: TestApp;
let credits: CreditService;

const SPENDS = 20;

useTestApp({ listen: false }, async (env) => {
  ({ app, database } = env);
  pool = await database.connectAgain({ poolSize: SPENDS });
  credits = app.services.credits;
});

// Registered after useTestApp, so it runs first: the pool closes before the database is removed.
afterAll(async () => {
  await pool?.close();
});

/** A bare account with `balance` credits (no profile needed for the ledger). */
async function accountWith(balance: number): Promise<number> {
  const user = await app.services.accounts.create({ email: uniqueEmail("credits"), status: "active" });
  if (balance > 0) await credits.changeNow(database.db, { userId: user.id, delta: balance, reason: "test_grant" });
  return user.id;
}

/**
 * Runs `work` in `count` transactions that all stand open at the same moment before any of them
 * goes on (PostgreSQL: one pool connection each). PGlite has one connection, on which transactions
 * take turns, so there they simply run in the order they were started.
 */
async function concurrently<T>(count: number, work: (tx: Tx) => Promise<T>): Promise<T[]> {
  let arrived = 0;
  let release: () => void = () => {};
  const allThere = new Promise<void>((resolve) => {
    release = resolve;
  });
  return Promise.all(
    Array.from({ length: count }, () =>
      pool.db.transaction(async (tx) => {
        if (usingPostgres) {
          await tx.execute(sql`select 1`);
          if (++arrived === count) release();
          await allThere;
        }
        return work(tx);
      }),
    ),
  );
}

const balanceOf = async (userId: number) => (await credits.account(database.db, userId)).credits;

describe("credit balance", () => {
  it(`lets ${SPENDS} concurrent spends of 1 on a balance of 5 take exactly 5, never going below zero`, async () => {
    const userId = await accountWith(5);
    const results = await concurrently(SPENDS, (tx) => credits.change(tx, { userId, delta: -1, reason: "message" }));
    const granted = results.filter((r) => r !== null);
    expect(granted).toHaveLength(5);
    expect(results.filter((r) => r === null)).toHaveLength(SPENDS - 5);
    expect(granted.map((r) => r.balance).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
    expect(await balanceOf(userId)).toBe(0);
    const spends = (await credits.ledger(database.db, userId)).filter((row) => row.reason === "message");
    expect(spends).toHaveLength(5);
    expect(spends.every((row) => row.delta === -1 && row.balanceAfter >= 0)).toBe(true);
  });

  it("refuses a spend larger than the balance, changing nothing", async () => {
    const userId = await accountWith(3);
    expect(await credits.changeNow(database.db, { userId, delta: -4, reason: "gift" })).toBeNull();
    expect(await balanceOf(userId)).toBe(3);
    expect(await credits.ledger(database.db, userId)).toHaveLength(1);
  });

  it("reads a member without a credit account as 0 credits, not premium, and makes the row on the first credit", async () => {
    const userId = await accountWith(0);
    expect(await credits.account(database.db, userId)).toEqual({ credits: 0, paid: false });
    expect(await credits.changeNow(database.db, { userId, delta: -1, reason: "message" })).toBeNull();
    expect(await credits.changeNow(database.db, { userId, delta: 7, reason: "purchase" })).toEqual({
      balance: 7,
      replayed: false,
    });
    await credits.grantPremium(database.db, userId);
    expect(await credits.account(database.db, userId)).toEqual({ credits: 7, paid: true });
  });

  it("rolls the change back with the caller's transaction", async () => {
    const userId = await accountWith(5);
    await expect(
      database.db.transaction(async (tx) => {
        await credits.change(tx, { userId, delta: -2, reason: "photo" });
        throw new Error("what it paid for failed");
      }),
    ).rejects.toThrow("what it paid for failed");
    expect(await balanceOf(userId)).toBe(5);
    expect(await credits.ledger(database.db, userId)).toHaveLength(1);
  });
});

describe("idempotency keys", () => {
  it("does not debit twice when a spend is replayed with the same key", async () => {
    const userId = await accountWith(10);
    const first = await credits.changeNow(database.db, { userId, delta: -3, reason: "message", key: "msg-1" });
    expect(first).toEqual({ balance: 7, replayed: false });
    const replay = await credits.changeNow(database.db, { userId, delta: -3, reason: "message", key: "msg-1" });
    expect(replay).toEqual({ balance: 7, replayed: true });
    expect(await balanceOf(userId)).toBe(7);
    // Another key is another spend; keys belong to one member.
    expect(await credits.changeNow(database.db, { userId, delta: -3, reason: "message", key: "msg-2" })).toEqual({
      balance: 4,
      replayed: false,
    });
    const other = await accountWith(10);
    expect(await credits.changeNow(database.db, { userId: other, delta: -3, reason: "message", key: "msg-1" })).toEqual({
      balance: 7,
      replayed: false,
    });
    expect((await credits.ledger(database.db, userId)).filter((row) => row.key === "msg-1")).toHaveLength(1);
  });

  it("debits once when two calls with the same key run at the same moment", async () => {
    const userId = await accountWith(10);
    const results = await concurrently(2, (tx) => credits.change(tx, { userId, delta: -4, reason: "gift", key: "gift-7" }));
    expect(results.map((r) => r?.balance)).toEqual([6, 6]);
    expect(results.map((r) => r?.replayed).sort()).toEqual([false, true]);
    expect(await balanceOf(userId)).toBe(6);
    expect((await credits.ledger(database.db, userId)).filter((row) => row.reason === "gift")).toHaveLength(1);
  });

  it("credits once when a keyed grant to a member without an account is replayed concurrently", async () => {
    const userId = await accountWith(0);
    const results = await concurrently(5, (tx) => credits.change(tx, { userId, delta: 50, reason: "purchase", key: "pay-1" }));
    expect(results.map((r) => r?.balance)).toEqual([50, 50, 50, 50, 50]);
    expect(results.filter((r) => r?.replayed === false)).toHaveLength(1);
    expect(await balanceOf(userId)).toBe(50);
  });

  it("lets a refused keyed spend be tried again once there are credits", async () => {
    const userId = await accountWith(1);
    expect(await credits.changeNow(database.db, { userId, delta: -2, reason: "photo", key: "photo-9" })).toBeNull();
    await credits.changeNow(database.db, { userId, delta: 5, reason: "purchase" });
    expect(await credits.changeNow(database.db, { userId, delta: -2, reason: "photo", key: "photo-9" })).toEqual({
      balance: 4,
      replayed: false,
    });
  });
});

describe("the keyed debit (credits_keyed_debit, the SQL function the chat send calls too)", () => {
  /** A keyed spend as the chat send makes it: the member's credit lock, then the function. */
  async function spend(userId: number, cost: number, key: string) {
    const change = await database.db.transaction((tx) => credits.change(tx, { userId, delta: -cost, reason: "message", key }));
    return { change, gated: change === null ? 0 : 1 };
  }

  it("debits once per key, answers a replay with the first balance, and refuses what the balance does not cover", async () => {
    const userId = await accountWith(25);
    expect(await spend(userId, 10, "message:a")).toEqual({ change: { balance: 15, replayed: false }, gated: 1 });
    expect(await spend(userId, 10, "message:a")).toEqual({ change: { balance: 15, replayed: true }, gated: 1 });
    expect(await spend(userId, 10, "message:b")).toEqual({ change: { balance: 5, replayed: false }, gated: 1 });
    expect(await spend(userId, 10, "message:c")).toEqual({ change: null, gated: 0 });
    expect(await balanceOf(userId)).toBe(5);
    const ledger = (await credits.ledger(database.db, userId)).filter((row) => row.reason === "message");
    expect(ledger.map((row) => [row.delta, row.balanceAfter, row.key])).toEqual([
      [-10, 15, "message:a"],
      [-10, 5, "message:b"],
    ]);
  });

  it("writes a ledger row of 0 for a free send, making the account of a member without one", async () => {
    const userId = await accountWith(0);
    expect(await spend(userId, 0, "message:free")).toEqual({ change: { balance: 0, replayed: false }, gated: 1 });
    expect(await spend(userId, 0, "message:free")).toEqual({ change: { balance: 0, replayed: true }, gated: 1 });
    expect(await credits.account(database.db, userId)).toEqual({ credits: 0, paid: false });
    expect((await credits.ledger(database.db, userId)).map((row) => [row.delta, row.key])).toEqual([[0, "message:free"]]);
  });

  it("refuses a paid send of a member without an account", async () => {
    const userId = await accountWith(0);
    expect(await spend(userId, 1, "message:none")).toEqual({ change: null, gated: 0 });
    expect(await credits.ledger(database.db, userId)).toEqual([]);
  });
});
