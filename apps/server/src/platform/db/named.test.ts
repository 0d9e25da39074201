import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, usingPostgres } from "../../test/harness.ts";
import type { Database } from "./index.ts";
import { MAX_STATEMENT_NAMES, namedRows, statementName } from "./named.ts";

describe("named statements", () => {
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

  const executed = async <T>(query: ReturnType<typeof sql>) =>
    ((await single.db.execute(query)) as unknown as { rows: T[] }).rows;
  const squares = (from: number, to: number) =>
    sql`select g * g as n, timestamptz '2026-01-02 03:04:05+00' + g * interval '1 day' as at
        from generate_series(${from}::int, ${to}::int) g order by g`;

  it("answer each run's own values, as db.execute does (the same type parsers), in and out of a transaction", async () => {
    for (let i = 0; i < 7; i++) expect(await namedRows(single.db, squares(i, i + 1))).toEqual(await executed(squares(i, i + 1)));
    const [row] = await namedRows<{ n: number; at: unknown }>(single.db, squares(2, 2));
    expect(row?.n).toBe(4);
    expect(typeof row?.at).toBe("string");
    await single.db.transaction(async (tx) => {
      expect(await namedRows(tx, sql`select ${"x"}::text || 'y' as t`)).toEqual([{ t: "xy" }]);
    });
  });

  it.runIf(usingPostgres)(
    "are prepared once per text and connection on PostgreSQL; db.execute's statements are not",
    async () => {
      const preparedLike = (pattern: string) =>
        executed<{ name: string }>(sql`select name from pg_prepared_statements where statement like ${pattern}`);
      for (let i = 0; i < 3; i++) await namedRows(single.db, squares(i, i + 1));
      const prepared = await preparedLike("%generate_series%");
      expect(prepared).toEqual([{ name: statementName(new PgDialect().sqlToQuery(squares(0, 1)).sql) }]);
      await executed(sql`select ${"unnamed"}::text as t`);
      expect(await preparedLike("%::text as t%")).toEqual([]);
    },
  );

  // Last: it fills the process's names up to the bound.
  it("are named by their text, the same name for the same text, up to a bound", () => {
    const name = statementName("select $1::int");
    expect(name).toMatch(/^q_[\w-]{20}$/);
    expect(statementName("select $1::int")).toBe(name);
    expect(statementName("select $1::text")).not.toBe(name);
    for (let i = 0; i < MAX_STATEMENT_NAMES; i++) statementName(`select ${i}`);
    expect(statementName("select 'past the bound'")).toBeUndefined();
    expect(statementName("select $1::int")).toBe(name);
  });
});
