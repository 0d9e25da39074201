import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, usingPostgres } from "../../test/harness.ts";
import type { Database } from "./index.ts";
import { preparedRows } from "./prepared.ts";

describe("preparedRows", () => {
  let database: TestDatabase;
  let single: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    // One connection, so the statements it prepared can be read back on it.
    single = await database.connectAgain({ poolSize: 1 });
  });
  afterAll(async () => {
    await single.close();
    await database.destroy();
  });

  const squares = (from: number, to: number) =>
    preparedRows<{ n: number }>(single.db, sql`select g * g as n from generate_series(${from}::int, ${to}::int) g order by g`);

  it("answers each call's own values when the same statement runs again", async () => {
    expect((await squares(1, 3)).map((r) => r.n)).toEqual([1, 4, 9]);
    expect((await squares(4, 5)).map((r) => r.n)).toEqual([16, 25]);
    // A different text (another shape) is another statement, not a clash of names.
    const other = await preparedRows<{ t: string }>(single.db, sql`select ${"x"}::text || 'y' as t`);
    expect(other).toEqual([{ t: "xy" }]);
  });

  it.runIf(usingPostgres)("prepares one statement per text on the connection, whatever the values", async () => {
    for (let i = 0; i < 7; i++) await squares(i, i + 2);
    const prepared = (await single.db.execute(
      sql`select name, statement from pg_prepared_statements where statement like '%generate_series%'`,
    )) as unknown as { rows: { name: string; statement: string }[] };
    expect(prepared.rows).toHaveLength(1);
    expect(prepared.rows[0]?.name).toMatch(/^q_/);
  });
});
