import { type SQL, sql } from "drizzle-orm";
import { alias, integer, PgDialect, pgTable, text } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/harness.ts";
import { compileFragment, fragmentText } from "./compile.ts";

const things = pgTable("compile_things", { id: integer("id").primaryKey(), name: text("name") });
const otherThings = alias(things, "other_things");
const drizzleDialect = new PgDialect();
const drizzleCompile = (statement: SQL) => {
  const { sql: text, params } = drizzleDialect.sqlToQuery(statement);
  return { sql: text, params };
};

describe("compiled fragments", () => {
  const condition = (me: unknown, other: unknown) =>
    sql`exists (select 1 from ${things} join ${otherThings} on ${otherThings.id} = ${things.id} where ${things.id} = ${other}::int and ${things.name} <> ${"x"} and ${sql.identifier("a")} is null) and ${me}::int <> ${other}::int`;
  const dialectOwner = { dialect: drizzleDialect };
  const fragment = compileFragment<"me" | "other">(dialectOwner, (p) => condition(p("me"), p("other")));

  it("bind to the same text and parameters as the template built with the values, wherever they stand", () => {
    for (const [me, other] of [
      [1, 2],
      [7, 3],
    ] as const) {
      const bound = sql`select ${"first"}, (${fragment.bind({ me, other })}) as "ok", ${"last"}`;
      const built = sql`select ${"first"}, (${condition(me, other)}) as "ok", ${"last"}`;
      expect(drizzleCompile(bound)).toEqual(drizzleCompile(built));
      const withPlaceholder = sql`${bound} where ${sql.placeholder("x")} = 1`;
      expect(drizzleCompile(withPlaceholder).sql).toBe(`${drizzleCompile(built).sql} where $7 = 1`);
    }
  });

  it("hold values of each kind, arrays, encoded parameters and fragments bound in fragments", () => {
    const inner = compileFragment<"n">(dialectOwner, (p) => sql`${p("n")}::int + ${1}`);
    const piece = (n: unknown) =>
      sql`select ${"a'b"}::text, ${true}, ${null}, ${12.5}, ${new Date(0)}, ${[1, sql`${2}`]}, ${sql.param(5, things.id)}, ${undefined}${n}`;
    const outer = compileFragment<"n">(dialectOwner, (p) => piece(inner.bind({ n: p("n") as never })));
    expect(drizzleCompile(outer.bind({ n: 4 }))).toEqual(drizzleCompile(piece(sql`${4}::int + ${1}`)));
  });

  it("refuse a use without a placeholder's value, and pieces they cannot hold", () => {
    expect(() => drizzleCompile(sql`select ${fragment.bind({ me: 1 } as never)}`)).toThrow(/other/);
    expect(() => compileFragment(dialectOwner, () => sql`select ${{ an: "object" }}`)).toThrow();
    expect(() => compileFragment(dialectOwner, () => sql`select ${1}`.inlineParams())).toThrow();
  });

  it("read as SQL text with the placeholders' expressions and the other values as literals", () => {
    expect(fragmentText(fragment, { me: "p_me", other: "p_other" })).toBe(
      `exists (select 1 from "compile_things" join "other_things" on "other_things"."id" = "compile_things"."id" where "compile_things"."id" = p_other::int and "compile_things"."name" <> 'x' and "a" is null) and p_me::int <> p_other::int`,
    );
    expect(() => fragmentText(fragment, { me: "p_me" })).toThrow(/other/);
  });
});

describe("a bound fragment on the database", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`create table "compile_things" ("id" int primary key, "name" text)`);
    await database.db.execute(sql`insert into "compile_things" values (${1}, ${"it's"}), (${2}, ${null})`);
  });
  afterAll(() => database.destroy());

  it("runs with each use's values, in and out of a transaction", async () => {
    const { db } = database;
    const named = compileFragment<"name">(db, (p) => sql`${things.name} = ${p("name")}::text`);
    const idsNamed = async (handle: Pick<typeof db, "execute">, name: string) =>
      (
        (await handle.execute(sql`select ${things.id} as "id" from ${things} where ${named.bind({ name })}`)) as unknown as {
          rows: { id: number }[];
        }
      ).rows;
    expect(await idsNamed(db, "it's")).toEqual([{ id: 1 }]);
    await db.transaction(async (tx) => {
      await tx.insert(things).values({ id: 3, name: "three" });
      expect(await idsNamed(tx, "three")).toEqual([{ id: 3 }]);
    });
    expect(await idsNamed(db, "none")).toEqual([]);
  });
});
