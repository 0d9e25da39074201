/**
 * The likes overview on PostgreSQL: a member with 5,000 likes received (1,000 of them matches, a third not
 * yet opened) among 20k profiles. GET /api/likes.php through the whole stack next to a bare node:http +
 * pg handler running the same SQL statements, both on loopback in one run; prints p50/p99 and req/s of
 * each and their ratio. The baseline's statements are not written by hand: one request through the app
 * records every statement it sends to PostgreSQL (text and parameters: the session look-up of
 * AccountService.member, the counts, the page, the main photos), and the bare handler sends the same ones
 * in the same order (the session first, then the counts and the page side by side, then the photos).
 * Creates its own database (dropped at the end).
 *
 *   npm run bench:likes     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
 *                            BENCH_PROFILES=20000, BENCH_SECONDS=5, BENCH_CONNECTIONS=20)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import autocannon from "autocannon";
import pg from "pg";
import { createBenchMember, insertBenchProfiles, openBenchApp } from "./search-data.ts";

const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const total = Number(process.env.BENCH_PROFILES ?? 20_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const RECEIVED = 5_000;
const MATCHES = 1_000;
const path = "/api/likes.php?type=received&page=1";

const { url, app, close } = await openBenchApp(adminUrl, "bench_likes");
try {
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  client.on("error", () => undefined);
  await insertBenchProfiles(client, total);
  const cookie = await createBenchMember(app.server, client);
  // 5,000 members like the bench member (a third of them not opened yet), newest first over 5,000 minutes;
  // the member likes 1,000 of them back: matches.
  await client.query(`
    with me as (select id from profiles where name = 'Bench')
    insert into likes (liker_id, liked_id, created_at, seen)
      select p.id, me.id, now() - (row_number() over (order by p.id)) * interval '1 minute', p.id % 3 <> 0
      from profiles p, me where p.fictional order by p.id limit ${RECEIVED};
    with me as (select id from profiles where name = 'Bench'),
      back as (select l.liker_id from likes l, me where l.liked_id = me.id order by l.liker_id limit ${MATCHES})
    insert into likes (liker_id, liked_id, created_at, matched_at)
      select me.id, back.liker_id, now(), now() from back, me;
    update likes set matched_at = now()
      where liked_id = (select id from profiles where name = 'Bench')
        and liker_id in (select liked_id from likes where liker_id = (select id from profiles where name = 'Bench'));
  `);
  await client.query("vacuum analyze");
  console.log(`inserted ${total} profiles and ${RECEIVED + MATCHES} likes in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  await app.server.listen({ host: "127.0.0.1", port: 0 });
  const ours = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}${path}`;

  // One request through the app, recording what it sends to PostgreSQL.
  type Statement = { text: string; values?: unknown[]; name?: string };
  const recorded: Statement[] = [];
  const poolQuery = pg.Pool.prototype.query;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    const [config, values] = args as [string | Statement, unknown[] | undefined];
    recorded.push({ ...(typeof config === "string" ? { text: config } : config), ...(values ? { values } : {}) });
    return (poolQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof poolQuery;
  const sample = await (await fetch(ours, { headers: { cookie } })).json();
  pg.Pool.prototype.query = poolQuery;
  console.log(
    `the member has ${JSON.stringify(sample.counts)}; page 1 of ${sample.pages}; ${recorded.length} statements per request`,
  );
  if (recorded.length !== 4) throw new Error(`expected 4 statements (session, counts, page, photos), got ${recorded.length}`);
  const [session, counts, page, photos] = recorded as [Statement, Statement, Statement, Statement];

  if (process.env.BENCH_EXPLAIN) {
    for (const statement of [counts, page, photos]) {
      const plan = await client.query(`explain (analyze, buffers) ${statement.text}`, statement.values as unknown[]);
      console.log(plan.rows.map((r) => r["QUERY PLAN"]).join("\n"));
    }
  }
  const pool = new pg.Pool({ connectionString: url, max: 10, options: "-c random_page_cost=1.1" });
  pool.on("error", () => undefined);
  const bare = createServer((_request, response) => {
    pool
      .query(session)
      .then(() => Promise.all([pool.query(counts), pool.query(page)]))
      .then(async ([countRows, pageRows]) => {
        const images = await pool.query(photos);
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ counts: countRows.rows[0], profiles: pageRows.rows, photos: images.rows }));
      })
      .catch((error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
  const baseline = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

  const measure = async (target: string) => {
    const headers = { cookie };
    await autocannon({ url: target, connections, duration: 2, headers });
    const result = await autocannon({ url: target, connections, duration: seconds, headers });
    if (result.non2xx || result.errors) {
      const probe = await fetch(target, { headers });
      throw new Error(`${target}: ${result.non2xx} non-2xx, ${result.errors} errors; e.g. ${probe.status} ${await probe.text()}`);
    }
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
  };
  const row = (label: string, r: { rps: number; p50: number; p99: number }) =>
    `${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms`;
  console.log(`node ${process.version}, ${connections} connections, 3 rounds of ${seconds} s per target`);
  // Rounds alternate between the targets (the machine is shared); each target's median round counts.
  const rounds: Record<"base" | "api", { rps: number; p50: number; p99: number }[]> = { base: [], api: [] };
  for (let round = 0; round < 3; round++) {
    rounds.base.push(await measure(baseline));
    rounds.api.push(await measure(ours));
  }
  const median = (list: { rps: number; p50: number; p99: number }[]) =>
    [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)] ?? { rps: 0, p50: 0, p99: 0 };
  const base = median(rounds.base);
  const api = median(rounds.api);
  console.log(row("bare node:http + pg (same SQL)", base));
  console.log(row("GET /api/likes.php (received, p. 1)", api));
  console.log(`ratio likes.php / baseline: ${(api.rps / base.rps).toFixed(2)}   (p99 ${api.p99} ms)`);

  bare.close();
  await pool.end();
  await client.end();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await close({ keep: !!process.env.BENCH_KEEP });
}
