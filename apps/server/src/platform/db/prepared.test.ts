import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, usingPostgres } from "../../test/harness.ts";
import { type Database, rowsOf } from "./index.ts";

describe.runIf(usingPostgres)("statements on PostgreSQL", () => {
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

  const rows = <T>(query: ReturnType<typeof sql>) => rowsOf<T>(single.db, query);
  const squares = (from: number, to: number) =>
    rows<{ n: number }>(sql`select g * g as n from generate_series(${from}::int, ${to}::int) g order by g`);
  const preparedLike = (pattern: string) =>
    rows<{ name: string }>(sql`select name from pg_prepared_statements where statement like ${pattern}`);

  it("are prepared once per text and connection, and answer each run's own values", async () => {
    expect((await squares(1, 3)).map((r) => r.n)).toEqual([1, 4, 9]);
    for (let i = 0; i < 7; i++) expect((await squares(i, i + 1)).map((r) => r.n)).toEqual([i * i, (i + 1) * (i + 1)]);
    const prepared = await preparedLike("%generate_series%");
    expect(prepared).toHaveLength(1);
    expect(prepared[0]?.name).toMatch(/^q_/);
    // Another text is another statement, not a clash of names.
    expect(await rows(sql`select ${"x"}::text || 'y' as t`)).toEqual([{ t: "xy" }]);
    expect(await preparedLike("%|| 'y'%")).toHaveLength(1);
  });

  it("leave statements without parameters unprepared", async () => {
    await rows(sql`select 42 as answer`);
    expect(await preparedLike("%42 as answer%")).toEqual([]);
  });
});
