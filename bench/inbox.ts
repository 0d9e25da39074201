/**
 * The operators' inbox (issue #27) on PostgreSQL: 10,000 conversations of members with fictional
 * profiles waiting for an answer (BENCH_WAITING), among BENCH_PROFILES fictional profiles. GET
 * /staff/api/inbox (an operator's first page: the count, 50 conversations oldest first with both
 * profiles, the last message, the claim) through the whole stack, next to a bare node:http + pg handler
 * sending the same statements (recorded from one request of ours: the staff session, the count, the
 * page, the main photos; bench/replay.ts), both on loopback in one run; prints p50/p99 and req/s of each
 * and their ratio, first as fast as the servers answer, then at BENCH_RATE requests a second arriving at
 * random (bench/paced.ts: what operators see on a busy console; the queue reloads every 10 s per open
 * page, so 50/s is hundreds of operators). The goal (issue #27): p99 <= 50 ms. The load comes from a worker thread. Creates its
 * own database (dropped at the end).
 *
 *   npm run bench:inbox     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
 *                            BENCH_PROFILES=2000, BENCH_WAITING=10000, BENCH_SECONDS=5, BENCH_CONNECTIONS=20, BENCH_RATE=50)
 */
import type { AddressInfo } from "node:net";
import autocannon from "autocannon";
import pg from "pg";
import { StaffService } from "../apps/server/src/modules/staff/service.ts";
import { formatRow, type Measured, measure, median } from "./load.ts";
import { measurePaced } from "./paced.ts";
import { recordPhases, replayServer } from "./replay.ts";
import { insertBenchProfiles, openBenchApp } from "./search-data.ts";

const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const personas = Number(process.env.BENCH_PROFILES ?? 2_000);
const waiting = Number(process.env.BENCH_WAITING ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const rate = Number(process.env.BENCH_RATE ?? 50);
const path = "/staff/api/inbox";

const { url, app, close } = await openBenchApp(adminUrl, "bench_inbox");
try {
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  client.on("error", () => undefined);
  await insertBenchProfiles(client, personas);
  // `waiting` members, each of whom wrote to one fictional profile (spread over the last 10 days) and
  // waits; as many conversations again that were answered (a persona's message last), which the queue skips.
  await client.query(`
    insert into users (status, fictional, language, invisible)
      select 'active', false, 'en', false from generate_series(1, ${waiting * 2});
    insert into profiles (user_id, status, name, gender, sexuality, birth_date, country, fictional)
      select u.id, 'active', 'Waiting ' || u.id, 'male', 'hetero', date '1980-01-01' + (u.id % 7000), 'NL', false
      from users u where u.email is null and not u.fictional;
    create temporary table pairs as
      select m.id as member_id, f.id as persona_id, row_number() over (order by m.id) as n
      from (select id, row_number() over (order by id) as k from profiles where not fictional and name like 'Waiting %') m
      join (select id, row_number() over (order by id) - 1 as k from profiles where fictional) f on f.k = m.k % ${personas};
    insert into conversations (profile_a, profile_b, fictional, last_seq, created_at, updated_at, waiting_since)
      select least(member_id, persona_id), greatest(member_id, persona_id), true, 1,
             now() - n * interval '1 minute', now() - n * interval '1 minute',
             case when n <= ${waiting} then now() - n * interval '1 minute' end
      from pairs;
    insert into conversation_members (profile_id, conversation_id, other_id, read_seq, wrote)
      select p.member_id, c.id, p.persona_id, 1, true from pairs p
        join conversations c on c.profile_a = least(p.member_id, p.persona_id) and c.profile_b = greatest(p.member_id, p.persona_id)
      union all
      select p.persona_id, c.id, p.member_id, 0, p.n > ${waiting} from pairs p
        join conversations c on c.profile_a = least(p.member_id, p.persona_id) and c.profile_b = greatest(p.member_id, p.persona_id);
    insert into messages (conversation_id, seq, sender_id, client_id, kind, text, created_at)
      select c.id, 1, case when p.n <= ${waiting} then p.member_id else p.persona_id end, gen_random_uuid(), 'text',
             'Hello, how are you? ' || p.n, c.created_at
      from pairs p join conversations c on c.profile_a = least(p.member_id, p.persona_id) and c.profile_b = greatest(p.member_id, p.persona_id);
  `);
  await client.query("vacuum analyze");
  const [{ n }] = (await client.query("select count(*)::int as n from conversations where waiting_since is not null")).rows;
  console.log(
    `${personas} fictional profiles, ${n} waiting conversations (and ${waiting} answered) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  // An operator, logged in with password and TOTP as the console does.
  const password = "bench operator password";
  const enrolment = await app.services.staff.create({
    email: "operator@bench.example",
    name: "Bench operator",
    role: "operator",
    language: "en",
    password,
  });
  const login = await app.server.inject({
    method: "POST",
    url: "/staff/api/login",
    headers: { "content-type": "application/json" },
    payload: JSON.stringify({ email: enrolment.account.email, password, code: StaffService.codeFor(enrolment.totp_secret) }),
  });
  if (login.statusCode !== 200) throw new Error(`staff login: ${login.statusCode} ${login.body}`);
  const cookie = String(login.headers["set-cookie"]).split(";")[0] ?? "";

  await app.server.listen({ host: "127.0.0.1", port: 0 });
  const ours = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}${path}`;
  const phases = await recordPhases(() => fetch(ours, { headers: { cookie } }).then((r) => r.text()));
  const sample = await (await fetch(ours, { headers: { cookie } })).json();
  console.log(
    `the queue: ${sample.waiting} waiting, ${sample.items.length} on the first page (oldest since ${sample.items[0]?.waiting_since}); ` +
      `${phases.flat().length} statements in ${phases.length} phases per request`,
  );
  if (process.env.BENCH_EXPLAIN) {
    // Each statement three times in this session: the last plan is the warm one (PL/pgSQL functions
    // plan their statements on first use per session).
    for (const statement of phases.flat()) {
      let plan: { rows: Record<string, string>[] } = { rows: [] };
      for (let i = 0; i < 3; i++) plan = await client.query(`explain (analyze, buffers) ${statement.text}`, statement.values);
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
  const results = { bare: [] as Measured[], ours: [] as Measured[] };
  for (let round = 0; round < 3; round++) {
    results.bare.push(await measure(autocannon, bare.url, { connections, seconds }));
    results.ours.push(await measure(autocannon, ours, { connections, seconds, headers: { cookie } }));
  }
  const paced = { bare: [] as Measured[], ours: [] as Measured[] };
  for (let round = 0; round < 3; round++) {
    paced.bare.push(await measurePaced(bare.url, { connections, seconds, rate }));
    paced.ours.push(await measurePaced(ours, { connections, seconds, rate, headers: { cookie } }));
  }
  const base = median(results.bare);
  const inbox = median(results.ours);
  console.log(`\nas fast as answered (${connections} connections):`);
  console.log(formatRow("bare node:http + pg, the inbox's SQL", base));
  console.log(formatRow("GET /staff/api/inbox", inbox));
  const pacedInbox = median(paced.ours);
  console.log(`\nopen-loop, ${rate} req/s arriving at random (Poisson):`);
  console.log(formatRow("bare node:http + pg, the inbox's SQL", median(paced.bare)));
  console.log(formatRow("GET /staff/api/inbox", pacedInbox));
  console.log(
    `\nratio inbox / baseline: ${(inbox.rps / base.rps).toFixed(2)}   (p99 ${inbox.p99} ms saturated, ${pacedInbox.p99} ms at ${rate} req/s; ` +
      `goal p99 <= 50 ms at ${rate} req/s: ${pacedInbox.p99 <= 50 ? "met" : "NOT met"})`,
  );
  bare.server.close();
  await pool.end();
  await client.end();
} finally {
  await close();
}
