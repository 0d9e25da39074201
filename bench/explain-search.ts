/**
 * EXPLAIN (ANALYZE, BUFFERS) of every statement GET /api/members.php runs at 100k profiles, for a visitor and a
 * logged-in member, on the same data as bench/search.ts (decision 018).
 *
 *   npx tsx bench/explain-search.ts    (BENCH_DATABASE_URL, BENCH_PROFILES, BENCH_QUERY)
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { buildApp } from "../apps/server/src/app.ts";
import { loadConfig } from "../apps/server/src/platform/config.ts";
import { openDatabase } from "../apps/server/src/platform/db/index.ts";
import { seed } from "../apps/server/src/seed/seed.ts";
import { createBenchMember, insertBenchProfiles } from "./search-data.ts";

const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const total = Number(process.env.BENCH_PROFILES ?? 100_000);
const query = process.env.BENCH_QUERY ?? "gender=female&country=DE&min_age=25&max_age=40&page=2";

// Every statement the app's pool runs, to explain afterwards.
const recorded: { text: string; values: unknown[] }[] = [];
let recording = false;
const originalQuery = pg.Pool.prototype.query;
pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
  const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
  if (recording) {
    recorded.push(
      typeof config === "string"
        ? { text: config, values: values ?? [] }
        : { text: config.text, values: config.values ?? values ?? [] },
    );
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Pool.prototype.query;

const name = `explain_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const dataDir = await mkdtemp(path.join(tmpdir(), "explain-search-"));
try {
  const database = await openDatabase({ url: url.toString(), dataDir: null, poolSize: 10 });
  const app = await buildApp(
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", HOST: "127.0.0.1", DATABASE_URL: url.toString() }),
    {
      web: false,
      database,
    },
  );
  await seed(app.services, { profiles: 0 });
  const client = new pg.Client({ connectionString: url.toString(), options: "-c random_page_cost=1.1" });
  await client.connect();
  await insertBenchProfiles(client, total);
  const cookie = await createBenchMember(app.server, client);
  for (const [who, headers] of [
    ["visitor", {}],
    ["member", { cookie }],
  ] as const) {
    recorded.length = 0;
    recording = true;
    const response = await app.server.inject({ url: `/api/members.php?${query}`, headers });
    recording = false;
    const body = response.json() as { numResults: number; numResultsCapped?: boolean };
    console.log(
      `\n=== ${who}: ${query} → ${response.statusCode}, numResults ${body.numResults}${body.numResultsCapped ? "+" : ""}`,
    );
    for (const statement of recorded) {
      if (!/^\s*\(?select/i.test(statement.text)) continue;
      console.log(`\n--- ${statement.text}\n    ${JSON.stringify(statement.values)}`);
      const plan = await client.query(`explain (analyze, buffers, costs off) ${statement.text}`, statement.values);
      for (const row of plan.rows) console.log(`    ${row["QUERY PLAN"]}`);
    }
  }
  await client.end();
  await app.close();
  await database.close();
} finally {
  pg.Pool.prototype.query = originalQuery;
  if (process.env.BENCH_KEEP) console.log(`kept database ${name}`);
  else await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  await rm(dataDir, { recursive: true, force: true });
}
