/**
 * The member search at 100k profiles on PostgreSQL: GET /api/members.php through the whole stack next
 * to a bare node:http + pg handler running the same SQL, both on loopback in one run; prints p50/p99
 * and req/s of each and their ratio. Also the same search as a logged-in member, who costs more: the
 * session, their own profile (for distances) and the block condition (20 blocks in the table). Each
 * kind is compared with a replay of its own statements (bench/replay.ts), first as fast as the servers
 * answer (the ratio), then at BENCH_RATE req/s arriving at random times (bench/paced.ts: the latency a
 * member sees on a busy site). The load comes from a worker thread. Creates its own database (dropped at the end).
 *
 *   npm run bench:search     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
 *                             BENCH_PROFILES=100000, BENCH_SECONDS=5, BENCH_CONNECTIONS=20, BENCH_RATE=200)
 */
import type { AddressInfo } from "node:net";
import autocannon from "autocannon";
import pg from "pg";
import { formatRow, type Measured, measure, median } from "./load.ts";
import { measurePaced } from "./paced.ts";
import { recordPhases, replayServer } from "./replay.ts";
import { createBenchMember, insertBenchProfiles, openBenchApp } from "./search-data.ts";

const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const total = Number(process.env.BENCH_PROFILES ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const rate = Number(process.env.BENCH_RATE ?? 200);
const query = "gender=female&country=DE&min_age=25&max_age=40&page=2";

// Schema and the default site through the app's own migrations and seed; then 100k members in bulk.
const { url, app, close } = await openBenchApp(adminUrl, "bench");
try {
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await insertBenchProfiles(client, total);
  console.log(`inserted ${total} profiles in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  await app.server.listen({ host: "127.0.0.1", port: 0 });
  const ours = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}/api/members.php?${query}`;
  const sample = await (await fetch(ours)).json();
  console.log(`the search finds ${sample.numResults} members (page 2 of ${sample.pages})`);

  // A member in Berlin with a session, who blocked 10 members and was blocked by 10.
  const cookie = await createBenchMember(app.server, client);

  // The baselines: the statements the app sends for this page, recorded from one request of each kind
  // and replayed by a bare node:http handler on a pool of the same size (and the same planner setting,
  // apps/server/src/platform/db/index.ts). The member's include the session lookup.
  const pool = new pg.Pool({ connectionString: url, max: 10, options: "-c random_page_cost=1.1" });
  // The sites are cached for 30 s (site service): at 1M the member's setup above takes longer, so the
  // first recorded page (the visitor's) reloaded them and its baseline replayed that read on every
  // request (3 statements instead of 2). Read them again just before recording.
  await fetch(ours).then((r) => r.text());
  const visitorPhases = await recordPhases(() => fetch(ours).then((r) => r.text()));
  const memberPhases = await recordPhases(() => fetch(ours, { headers: { cookie } }).then((r) => r.text()));
  const describe = (phases: unknown[][]) => `${phases.length} phases, ${phases.flat().length} statements`;
  console.log(`visitor: ${describe(visitorPhases)}; member: ${describe(memberPhases)}`);
  const visitorBase = await replayServer(pool, visitorPhases);
  const memberBase = await replayServer(pool, memberPhases);

  console.log(
    `node ${process.version}, ${connections} connections, 3 rounds of ${seconds} s per target, ${total} profiles; load from a worker thread`,
  );
  // Rounds alternate between the targets (the database's caches warm up as it goes; the machine is
  // shared): each target's median round counts.
  const targets = {
    visitorBase: { url: visitorBase.url, headers: {} },
    visitor: { url: ours, headers: {} },
    memberBase: { url: memberBase.url, headers: {} },
    member: { url: ours, headers: { cookie } },
  };
  const saturated = Object.fromEntries(Object.keys(targets).map((k) => [k, [] as Measured[]])) as Record<
    keyof typeof targets,
    Measured[]
  >;
  const paced = structuredClone(saturated);
  for (let round = 0; round < 3; round++) {
    for (const [name, target] of Object.entries(targets) as [keyof typeof targets, (typeof targets)["visitor"]][]) {
      saturated[name].push(await measure(autocannon, target.url, { connections, seconds, headers: target.headers }));
    }
  }
  // The latency a searching member sees on a busy site (not at the queue of a saturated server):
  // searches arriving independently at `rate` per second (bench/paced.ts).
  for (let round = 0; round < 3; round++) {
    for (const [name, target] of Object.entries(targets) as [keyof typeof targets, (typeof targets)["visitor"]][]) {
      paced[name].push(await measurePaced(target.url, { connections, seconds, headers: target.headers, rate }));
    }
  }
  const m = (list: Measured[]) => median(list);
  console.log(`\nas fast as answered (${connections} connections):`);
  console.log(formatRow("bare node:http + pg, visitor's SQL", m(saturated.visitorBase)));
  console.log(formatRow(`GET /api/members.php?${query.slice(0, 12)}…`, m(saturated.visitor)));
  console.log(formatRow("bare node:http + pg, member's SQL", m(saturated.memberBase)));
  console.log(formatRow("the same search as a logged-in member", m(saturated.member)));
  console.log(`\nopen-loop, ${rate} req/s arriving at random (Poisson), pool of ${connections} connections:`);
  console.log(formatRow("bare node:http + pg, visitor's SQL", m(paced.visitorBase)));
  console.log(formatRow("members.php, visitor", m(paced.visitor)));
  console.log(formatRow("bare node:http + pg, member's SQL", m(paced.memberBase)));
  console.log(formatRow("members.php, member", m(paced.member)));
  const ratio = (a: Measured, b: Measured) => (a.rps / b.rps).toFixed(2);
  console.log(
    `\nratio members.php / baseline, visitor: ${ratio(m(saturated.visitor), m(saturated.visitorBase))}   (p99 ${m(saturated.visitor).p99} ms saturated, ${m(paced.visitor).p99} ms at ${rate} req/s)`,
  );
  console.log(
    `ratio members.php / baseline, member:  ${ratio(m(saturated.member), m(saturated.memberBase))}   (p99 ${m(saturated.member).p99} ms saturated, ${m(paced.member).p99} ms at ${rate} req/s)`,
  );

  visitorBase.server.close();
  memberBase.server.close();
  await pool.end();
  await client.end();
} finally {
  await close();
}
