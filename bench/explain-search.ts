/**
 * EXPLAIN (ANALYZE, BUFFERS) of every statement GET /api/members.php runs at 100k profiles, for a visitor and a
 * logged-in member, on the same data as bench/search.ts (decision 018).
 *
 *   npx tsx bench/explain-search.ts    (BENCH_DATABASE_URL, BENCH_PROFILES, BENCH_QUERY)
 */
import pg from "pg";
import { createBenchMember, insertBenchProfiles, openBenchApp } from "./search-data.ts";

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

const { url, app, close } = await openBenchApp(adminUrl, "explain");
let named = 0;
try {
  const client = new pg.Client({ connectionString: url, options: "-c random_page_cost=1.1" });
  await client.connect();
  await insertBenchProfiles(client, total);
  const cookie = await createBenchMember(app.server, client);
  // The site's settings are read once and cached: read them first, or the visitor's page shows that read too.
  await app.server.inject({ url: `/api/members.php?${query}` });
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
      // As the app runs it: a named statement, which PostgreSQL plans anew each time (custom plans) or
      // once (a generic plan, chosen after five runs when it is no worse): planning counts too.
      const name = `explained_${++named}`;
      const times: number[] = [];
      for (let run = 0; run < 20; run++) {
        const started = performance.now();
        await client.query({ name, text: statement.text, values: statement.values });
        times.push(performance.now() - started);
      }
      const [cached] = (
        await client.query("select generic_plans, custom_plans from pg_prepared_statements where name = $1", [name])
      ).rows;
      const late = times.slice(5).sort((a, b) => a - b);
      console.log(
        `    named, runs 6–20: median ${late[Math.floor(late.length / 2)]?.toFixed(2)} ms; plans: ${cached?.generic_plans} generic, ${cached?.custom_plans} custom`,
      );
    }
  }
  await client.end();
} finally {
  pg.Pool.prototype.query = originalQuery;
  await close({ keep: !!process.env.BENCH_KEEP });
}
