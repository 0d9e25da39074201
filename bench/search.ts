/**
 * The member search at 100k profiles on PostgreSQL: GET /api/members.php through the whole stack next
 * to a bare node:http + pg handler running the same SQL, both on loopback in one run; prints p50/p99
 * and req/s of each and their ratio. Also the same search as a logged-in member, who costs more: the
 * session, their own profile (for distances) and the block condition (20 blocks in the table). Creates
 * its own database (dropped at the end).
 *
 *   npm run bench:search     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
 *                             BENCH_PROFILES=100000, BENCH_SECONDS=5, BENCH_CONNECTIONS=20)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SEARCH_COUNT_CAP } from "@app/contract";
import autocannon from "autocannon";
import pg from "pg";
import { createBenchMember, insertBenchProfiles, openBenchApp } from "./search-data.ts";

const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const total = Number(process.env.BENCH_PROFILES ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
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

  // The baseline: the statements the app runs for this page, by hand, on a pool of the same size (and
  // the same planner setting, apps/server/src/platform/db/index.ts): the count up to the cap, the page
  // of members with a photo (newest first, stopping after the page), then the page's main photos.
  const pool = new pg.Pool({ connectionString: url, max: 10, options: "-c random_page_cost=1.1" });
  const today = new Date();
  const from = new Date(Date.UTC(today.getUTCFullYear() - 41, today.getUTCMonth(), today.getUTCDate() + 1))
    .toISOString()
    .slice(0, 10);
  const to = new Date(Date.UTC(today.getUTCFullYear() - 25, today.getUTCMonth(), today.getUTCDate())).toISOString().slice(0, 10);
  const where = `status = 'active'
    and exists (select 1 from users u where u.id = profiles.user_id and not u.invisible and u.status <> 'pending_deletion')
    and gender = 'female' and country in ('DE') and birth_date >= $1 and birth_date <= $2`;
  const withPhoto =
    "exists (select 1 from photos f where f.profile_id = profiles.id and f.is_main and f.status = 'active' and not f.private)";
  const bare = createServer((_request, response) => {
    Promise.all([
      pool.query(`select count(*)::int as n from (select 1 from profiles where ${where} limit ${SEARCH_COUNT_CAP + 1}) t`, [
        from,
        to,
      ]),
      pool.query(
        `select id, name, date_part('year', age(current_date, birth_date))::int as age, country, city, fictional, latitude, longitude
         from profiles where ${where} and ${withPhoto} order by created_at desc, id desc limit 24 offset 24`,
        [from, to],
      ),
    ])
      .then(async ([count, page]) => {
        const ids = page.rows.map((r) => r.id);
        const photos = ids.length
          ? await pool.query("select profile_id, thumb_filename, status from photos where profile_id = any($1) and is_main", [
              ids,
            ])
          : { rows: [] };
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ profiles: page.rows, numResults: count.rows[0].n, photos: photos.rows }));
      })
      .catch((error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
  const baseline = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

  // A member in Berlin with a session, who blocked 10 members and was blocked by 10.
  const cookie = await createBenchMember(app.server, client);

  const measure = async (target: string, headers: Record<string, string> = {}) => {
    await autocannon({ url: target, connections, duration: 2, headers });
    const result = await autocannon({ url: target, connections, duration: seconds, headers });
    if (result.non2xx || result.errors) throw new Error(`${target}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
  };
  const row = (label: string, r: { rps: number; p50: number; p99: number }) =>
    `${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms`;
  console.log(`node ${process.version}, ${connections} connections, 3 rounds of ${seconds} s per target, ${total} profiles`);
  // Rounds alternate between the targets (the database's caches warm up as it goes; the machine is
  // shared): each target's median round counts.
  const rounds: Record<"base" | "api" | "member", { rps: number; p50: number; p99: number }[]> = {
    base: [],
    api: [],
    member: [],
  };
  for (let round = 0; round < 3; round++) {
    rounds.base.push(await measure(baseline));
    rounds.api.push(await measure(ours));
    rounds.member.push(await measure(ours, { cookie }));
  }
  const median = (list: { rps: number; p50: number; p99: number }[]) =>
    [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)] ?? { rps: 0, p50: 0, p99: 0 };
  const base = median(rounds.base);
  const api = median(rounds.api);
  const member = median(rounds.member);
  console.log(row("bare node:http + pg (same SQL)", base));
  console.log(row(`GET /api/members.php?${query.slice(0, 12)}…`, api));
  console.log(row("the same, as a logged-in member", member));
  console.log(`ratio members.php / baseline: ${(api.rps / base.rps).toFixed(2)}   (p99 ${api.p99} ms)`);
  console.log(`ratio members.php as a member / baseline: ${(member.rps / base.rps).toFixed(2)}   (p99 ${member.p99} ms)`);

  bare.close();
  await pool.end();
  await client.end();
} finally {
  await close();
}
