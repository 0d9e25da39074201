/**
 * The likes overview on PostgreSQL: a member with 5,000 likes received (1,000 of them matches, a third not
 * yet opened) among 20k profiles. GET /api/likes.php through the whole stack next to a bare node:http +
 * pg handler running the same SQL statements, both on loopback in one run; prints p50/p99 and req/s of
 * each and their ratio. The baseline's statements are not written by hand: one request through the app
 * records every statement it sends to PostgreSQL (text and parameters: the session look-up of
 * AccountService.member, the counts, the page, the main photos), and the bare handler sends the same ones
 * in the same phases (bench/replay.ts: the session first, then the counts and the page side by side, then
 * the photos). The load comes from a worker thread.
 * Creates its own database (dropped at the end).
 *
 *   npm run bench:likes     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
 *                            BENCH_PROFILES=20000, BENCH_SECONDS=5, BENCH_CONNECTIONS=20)
 */
import type { AddressInfo } from "node:net";
import autocannon from "autocannon";
import pg from "pg";
import { formatRow, type Measured, measure, median } from "./load.ts";
import { recordPhases, replayServer } from "./replay.ts";
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

  // One request through the app, recording what it sends to PostgreSQL, in its phases.
  const phases = await recordPhases(() => fetch(ours, { headers: { cookie } }).then((r) => r.text()));
  const sample = await (await fetch(ours, { headers: { cookie } })).json();
  const statements = phases.flat();
  console.log(
    `the member has ${JSON.stringify(sample.counts)}; page 1 of ${sample.pages}; ${statements.length} statements in ${phases.length} phases per request`,
  );
  if (process.env.BENCH_EXPLAIN) {
    for (const statement of statements.slice(1)) {
      const plan = await client.query(`explain (analyze, buffers) ${statement.text}`, statement.values);
      console.log(plan.rows.map((r) => r["QUERY PLAN"]).join("\n"));
    }
  }
  const pool = new pg.Pool({ connectionString: url, max: 10, options: "-c random_page_cost=1.1" });
  pool.on("error", () => undefined);
  const bare = await replayServer(pool, phases);

  console.log(
    `node ${process.version}, ${connections} connections, 3 rounds of ${seconds} s per target; load from a worker thread`,
  );
  // Rounds alternate between the targets (the machine is shared); each target's median round counts.
  const headers = { cookie };
  const rounds: Record<"base" | "api", Measured[]> = { base: [], api: [] };
  for (let round = 0; round < 3; round++) {
    rounds.base.push(await measure(autocannon, bare.url, { connections, seconds, headers }));
    rounds.api.push(await measure(autocannon, ours, { connections, seconds, headers }));
  }
  const base = median(rounds.base);
  const api = median(rounds.api);
  console.log(formatRow("bare node:http + pg (same SQL)", base));
  console.log(formatRow("GET /api/likes.php (received, p. 1)", api));
  console.log(`ratio likes.php / baseline: ${(api.rps / base.rps).toFixed(2)}   (p99 ${api.p99} ms, baseline ${base.p99} ms)`);

  bare.server.close();
  await pool.end();
  await client.end();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await close({ keep: !!process.env.BENCH_KEEP });
}
