import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { alias, integer, PgDialect, pgTable, text } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/harness.ts";
import { compileFragment, plainSqlCompiler } from "./compile.ts";
import { rowsOf } from "./index.ts";

const things = pgTable("compile_things", { id: integer("id").primaryKey(), name: text("name") });
const db = drizzle.mock();
const things2 = alias(things, "other_things");
const drizzleDialect = new PgDialect();
const drizzleCompile = (statement: SQL) => {
  const { sql: text, params } = drizzleDialect.sqlToQuery(statement);
  return { sql: text, params };
};
const compilePlainSql = plainSqlCompiler({
  sqlToQuery: (statement) => drizzleDialect.sqlToQuery(statement),
  escapeName: (name) => drizzleDialect.escapeName(name),
});

describe("compilePlainSql", () => {
  const plain: [string, SQL][] = [
    ["text only", sql`select 1`],
    ["raw", sql.raw(`select "id" from "x"`)],
    ["values of each kind", sql`select ${1}::int, ${"a'b"}::text, ${true}, ${null}, ${12.5}, ${new Date(0)}, ${10n}`],
    ["undefined chunk", sql`select ${sql`1`}${undefined} as "one"`],
    [
      "nested templates number their parameters in order",
      sql`select ${sql`${1} + ${sql`${2} * ${sql.raw("3")}`}`} as "a", ${sql`${"x"}`} as "b" where ${4} = ${4}`,
    ],
    ["sql.join", sql`select ${sql.join([sql`${1}`, sql`${2}`, sql.raw("3")], sql`, `)}`],
    ["sql.empty", sql`select 1 ${sql.empty()}`],
    ["a value that looks like SQL text stays a value", sql`select ${"$1; drop table x"}::text`],
    ["a table and its columns", sql`select ${things.id}, ${things.name} from ${things} where ${things.id} = ${7}`],
    ["the same table again (remembered)", sql`select ${things.name} from ${things} where ${things.id} > ${0}`],
    ["an aliased table", sql`select ${things2.id} from ${things} join ${things2} on ${things2.id} = ${things.id}`],
    ["an array (drizzle writes a list)", sql`select 1 where 2 in ${[1, sql`${2}`, "x"]} and 3 in ${[]}`],
    ["an encoded param", sql`select ${sql.param(5, things.id)}, ${sql.param(null, things.name)}`],
    [
      "the query builder's statements",
      db
        .select()
        .from(things)
        .where(and(eq(things.id, 3), inArray(things.name, ["a", "b"])))
        .getSQL(),
    ],
    ["identifiers", sql`select 1 as ${sql.identifier('a "quoted" name')}, ${sql.identifier("b")}.x`],
  ];
  it.each(plain)("compiles %s exactly as drizzle does", (_name, statement) => {
    const fast = compilePlainSql(statement);
    expect(fast).toBeDefined();
    expect(fast).toEqual(drizzleCompile(statement));
  });

  const other: [string, SQL][] = [
    ["a placeholder", sql`select ${sql.placeholder("x")}`],
    ["a placeholder in a param", sql`select ${sql.param(sql.placeholder("x"), things.id)}`],
    ["inlined parameters", sql`select ${1}`.inlineParams()],
    ["a plain object", sql`select ${{ a: 1 }}::jsonb`],
  ];
  it.each(other)("leaves %s to drizzle", (_name, statement) => {
    expect(compilePlainSql(statement)).toBeUndefined();
  });
});

describe("compiled fragments", () => {
  const condition = (me: unknown, other: unknown) =>
    sql`exists (select 1 from ${things} where ${things.id} = ${other}::int and ${things.name} <> ${"x"}) and ${me}::int <> ${other}::int`;
  const dialectOwner = { dialect: drizzleDialect };
  const fragment = compileFragment<"me" | "other">(dialectOwner, (p) => condition(p("me"), p("other")));

  it("bind to the same text and parameters as the template built with the values, wherever they stand", () => {
    for (const [me, other] of [
      [1, 2],
      [7, 3],
    ] as const) {
      const bound = sql`select ${"first"}, (${fragment.bind({ me, other })}) as "ok", ${"last"}`;
      const built = sql`select ${"first"}, (${condition(me, other)}) as "ok", ${"last"}`;
      expect(compilePlainSql(bound)).toEqual(drizzleCompile(built));
      // A statement drizzle compiles (here: a placeholder elsewhere) reads the fragment the same way.
      const withPlaceholder = sql`${bound} where ${sql.placeholder("x")} = 1`;
      expect(compilePlainSql(withPlaceholder)).toBeUndefined();
      expect(drizzleCompile(withPlaceholder).sql).toBe(`${drizzleCompile(built).sql} where $7 = 1`);
    }
  });

  it("refuse a use without a placeholder's value, and pieces they cannot hold", () => {
    expect(() => compilePlainSql(sql`select ${fragment.bind({ me: 1 } as never)}`)).toThrow(/other/);
    expect(() => compileFragment(dialectOwner, () => sql`select ${{ an: "object" }}`)).toThrow();
  });
});

describe("the database's statements", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`create table "compile_things" ("id" int primary key, "name" text)`);
  });
  afterAll(() => database.destroy());

  it("run with the same values through both paths, in and out of a transaction", async () => {
    const { db } = database;
    await db.execute(sql`insert into "compile_things" values (${1}, ${"it's"}), (${2}, ${null})`);
    await db.transaction(async (tx) => {
      await tx.insert(things).values({ id: 3, name: "three" });
      await tx.execute(sql`update "compile_things" set "name" = ${"two"} where "id" = ${2}`);
    });
    const viaTemplate = await rowsOf(db, sql`select "id", "name" from "compile_things" where "id" <= ${3} order by "id"`);
    const viaBuilder = await db.select().from(things).orderBy(things.id);
    expect(viaTemplate).toEqual([
      { id: 1, name: "it's" },
      { id: 2, name: "two" },
      { id: 3, name: "three" },
    ]);
    expect(viaBuilder).toEqual(viaTemplate);
    expect(await db.select().from(things).where(eq(things.name, "three"))).toEqual([{ id: 3, name: "three" }]);
  });
});
