/**
 * Real-time chat under load (issue #10, "Speed"), ours next to Socket.IO in one run:
 *
 * 1. Paid messages. BENCH_MEMBERS members in pairs, each pair's two members on different server nodes.
 *    Ours: two nodes of the real server (bench/chat-server.ts ours) on one PostgreSQL database and one
 *    Redis; a sender POSTs /api/message.php to its own node (session, rate limit, transaction with the
 *    debit, durable events), the recipient's WebSocket on the other node receives chat.message through
 *    Redis. Socket.IO: two instances with @socket.io/redis-adapter; the sender emits `send` on its socket,
 *    the handler runs the paid message's transaction and emits to the recipient's room. Latency is from the
 *    moment a send was due (paced open loop: the schedule does not wait for answers) until the recipient's
 *    socket has the message; a message not delivered within BENCH_DRAIN_MS counts as infinitely late. The
 *    offered rate steps up (BENCH_MESSAGE_RATES, BENCH_STEP_SECONDS each, ours and Socket.IO alternating at
 *    each step); a side stops at its first step whose p99 is over BENCH_P99_MS. Printed: the highest rate
 *    within it, with p50/p99, for each side, and the ratio ours / Socket.IO.
 * 2. Typing fan-out, no transaction: the client frame `typing` (alternately true and false, so that the
 *    server's 2 s throttle of `true` forwards every frame) to the other member's socket on the other node;
 *    Socket.IO emits to the conversation's room through the Redis adapter. Same stepping
 *    (BENCH_TYPING_RATES).
 * 3. Memory per idle connection: a fresh server process of each kind, BENCH_IDLE_CONNECTIONS authenticated
 *    idle sockets (one member each), its own process.memoryUsage() after full GCs before and after, over
 *    the number of sockets.
 * Each step also prints the CPU per delivered message (or typing frame) of the side's two server
 * processes, of PostgreSQL (the whole server, ended backends included) and of Redis, from /proc: what a
 * send costs, steadier on a shared box than the p99 that decides the rate.
 *
 * Commits do not wait for the disk by default (the bench database's synchronous_commit is off, for both
 * sides alike): on this kind of virtual machine an fdatasync usually takes 0.1 ms but now and then
 * 150-350 ms, and every commit waiting in it at that moment (ours' or Socket.IO's, whichever side is
 * stepping) lands in the p99, which then says which side the disk stalled under rather than which
 * server is faster (decision 020). BENCH_SYNCHRONOUS_COMMIT=on measures with the disk, as deployed.
 *
 * Servers run in child processes (--expose-gc, IPC), the clients in this process. Members, sessions,
 * credits and conversations are made in bulk SQL (a session token is `<secret><user id>`, its SHA-256
 * stored as the accounts module does). Creates its own database and Redis prefix; removes both.
 *
 *   npm run bench:chat   (BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres,
 *                         BENCH_REDIS_URL=redis://127.0.0.1:6379, BENCH_MEMBERS=1000,
 *                         BENCH_MESSAGE_RATES=100,200,400,700,1000,1200,1400,1600,1800,
 *                         BENCH_TYPING_RATES=500,1000,2000,4000,6000,8000, BENCH_STEP_SECONDS=5,
 *                         BENCH_WARMUP_SECONDS=5,
 *                         BENCH_P99_MS=200, BENCH_DRAIN_MS=2000, BENCH_IDLE_CONNECTIONS=5000,
 *                         BENCH_HTTP_CONNECTIONS=50 per node, BENCH_PARTS=messages,typing,memory,
 *                         BENCH_SEND=socket (ours sends the `send` frame on the member's socket, as the web
 *                         does when connected) or http (POST /api/message.php, the web's fallback),
 *                         BENCH_STATEMENTS=1 prints the statements of one send,
 *                         BENCH_CPU_PROF=<dir> writes each server process's CPU profile there,
 *                         BENCH_POOL_SIZE=<n> sets our nodes' database pool (DATABASE_POOL_SIZE, 10 by default),
 *                         BENCH_SYNCHRONOUS_COMMIT=off or on (the bench database's synchronous_commit),
 *                         BENCH_VACUUM=off (no vacuum of the updated tables before each step, vacuumBetweenSteps),
 *                         BENCH_DIAG=1 lists each step's sends over 60 ms (due time + latency) and has the
 *                         servers report slow statements, long GCs and late event-loop turns (chat-server.ts)
 */
import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { SESSION_COOKIE, type ServerFrame } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import pg from "pg";
import { io as connectSocketIo, type Socket } from "socket.io-client";
import { Pool } from "undici";
import WebSocket from "ws";
import { openBenchApp } from "./search-data.ts";

const env = process.env;
const adminUrl = env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const redisUrl = env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const members = Math.max(2, Math.floor(Number(env.BENCH_MEMBERS ?? 1_000) / 2) * 2);
const rates = (value: string) =>
  value
    .split(",")
    .map(Number)
    .filter((n) => n > 0);
const messageRates = rates(env.BENCH_MESSAGE_RATES ?? "100,200,400,700,1000,1200,1400,1600,1800");
const typingRates = rates(env.BENCH_TYPING_RATES ?? "500,1000,2000,4000,6000,8000");
const stepSeconds = Number(env.BENCH_STEP_SECONDS ?? 5);
// 5 s: with 2 s, the first Socket.IO step of every run on a stalling box failed on its p99 (bench/notes/chat-runs.md, 2026-11-27).
const warmupSeconds = Number(env.BENCH_WARMUP_SECONDS ?? 5);
const p99Limit = Number(env.BENCH_P99_MS ?? 200);
const drainMs = Number(env.BENCH_DRAIN_MS ?? 2_000);
const idleConnections = Number(env.BENCH_IDLE_CONNECTIONS ?? 5_000);
const httpConnections = Number(env.BENCH_HTTP_CONNECTIONS ?? 50);
const parts = new Set((env.BENCH_PARTS ?? "messages,typing,memory").split(","));
/** How ours sends a paid message: the `send` frame on the member's socket (what the web does), or HTTP. */
const sendOver = env.BENCH_SEND === "http" ? "http" : "socket";
const serverScript = fileURLToPath(new URL("./chat-server.ts", import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- server processes

interface ServerProcess {
  url: string;
  pid: number;
  memory(): Promise<{ usage: NodeJS.MemoryUsage; connections: number }>;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();

async function startServer(kind: "ours" | "socketio", extraEnv: Record<string, string>): Promise<ServerProcess> {
  const child = fork(serverScript, [kind], {
    execArgv: [
      "--expose-gc",
      "--import",
      "tsx",
      ...(env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${env.BENCH_CPU_PROF}`] : []),
    ],
    env: { ...env, ...extraEnv },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        resolve(message as T);
      };
      const onExit = (code: number | null) => reject(new Error(`${kind} server exited with ${code}`));
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  const { port } = await next<{ port: number }>("ready");
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    memory: async () => {
      const answer = next<{ usage: NodeJS.MemoryUsage; connections: number }>("memory");
      child.send({ type: "memory" });
      return answer;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send({ type: "stop" });
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

// ---------------------------------------------------------------- members

interface BenchMember {
  index: number;
  userId: number;
  profileId: number;
  conversationId: number;
  /** The other member of the pair (index). */
  partner: number;
  token: string;
  /** A client address of its own (X-Forwarded-For, behind the trusted proxy hop). */
  address: string;
}

/** `count` active, premium members with plenty of credits and a session each, in pairs with a conversation. */
async function insertMembers(client: pg.Client, count: number): Promise<BenchMember[]> {
  const secret = randomBytes(16).toString("hex");
  await client.query(`
    insert into users (email, status, language)
      select 'chat-bench-' || g || '@example.org', 'active', 'en' from generate_series(1, ${count}) g;
    insert into profiles (user_id, status, name, gender, sexuality, birth_date, country, fictional)
      select u.id, 'active', 'Bench ' || u.id, (case when u.id % 2 = 0 then 'female' else 'male' end)::gender, 'hetero',
             date '1990-01-01', 'DE', false
      from users u where u.email like 'chat-bench-%';
    insert into credit_accounts (user_id, balance, paid_user)
      select id, 100000000, true from users where email like 'chat-bench-%';
    insert into sessions (user_id, token_hash, expires_at)
      select id, encode(sha256(convert_to('${secret}' || id, 'UTF8')), 'hex'), now() + interval '1 day'
      from users where email like 'chat-bench-%';
    with ranked as (
      select p.id, row_number() over (order by p.id) - 1 as r
      from profiles p join users u on u.id = p.user_id where u.email like 'chat-bench-%'
    )
    insert into conversations (profile_a, profile_b) select a.id, b.id from ranked a join ranked b on b.r = a.r + 1 where a.r % 2 = 0;
    insert into conversation_members (profile_id, conversation_id, other_id)
      select profile_a, id, profile_b from conversations union all select profile_b, id, profile_a from conversations;
  `);
  await client.query("vacuum analyze");
  const { rows } = await client.query<{ user_id: number; profile_id: number; conversation_id: number }>(`
    select u.id as user_id, p.id as profile_id, cm.conversation_id
    from users u join profiles p on p.user_id = u.id join conversation_members cm on cm.profile_id = p.id
    where u.email like 'chat-bench-%' order by p.id`);
  return rows.map((row, index) => ({
    index,
    userId: Number(row.user_id),
    profileId: Number(row.profile_id),
    conversationId: Number(row.conversation_id),
    partner: index % 2 === 0 ? index + 1 : index - 1,
    token: `${secret}${row.user_id}`,
    address: `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
  }));
}

/**
 * How many statements (transaction control included) one POST /api/message.php sends to PostgreSQL, counted
 * on the bench's in-process app: every query of pg, pooled or in a transaction, goes through Client.query.
 */
async function statementsOfOneSend(server: FastifyInstance, member: BenchMember): Promise<number> {
  const send = async () => {
    const response = await server.inject({
      method: "POST",
      url: "/api/message.php",
      headers: { cookie: `${SESSION_COOKIE}=${member.token}`, "content-type": "application/json" },
      payload: JSON.stringify({ conversation_id: member.conversationId, client_id: randomUUID(), text: "counted" }),
    });
    if (response.statusCode !== 200) throw new Error(`the counted send answered ${response.statusCode}: ${response.body}`);
  };
  // The first send warms the node (its connections, its prepared statements); the second is what every send runs.
  await send();
  const original = pg.Client.prototype.query;
  const texts: string[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config] = args as [string | { text: string }];
    texts.push((typeof config === "string" ? config : config.text).replace(/\s+/g, " "));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await send();
    if (env.BENCH_STATEMENTS) for (const text of texts) console.log(`  ${text.slice(0, 240)}`);
    return texts.length;
  } finally {
    pg.Client.prototype.query = original;
  }
}

// ---------------------------------------------------------------- measuring

/** Sends due at known times and their arrivals, for one step. */
/** What BENCH_DIAG lists of a step's sends (nothing is kept without it). */
const DIAG = Boolean(process.env.BENCH_DIAG);
const SLOW_MS = 60;

class Tracker {
  private readonly due = new Map<string, number>();
  readonly latencies: number[] = [];
  /** When the sender had its answer (HTTP response, acknowledgement), ms after the send was due. */
  readonly answers: number[] = [];
  failed = 0;
  firstError: string | null = null;

  start(key: string, at: number) {
    this.due.set(key, at);
  }
  arrived(key: string) {
    const at = this.due.get(key);
    if (at === undefined) return;
    this.due.delete(key);
    const latency = performance.now() - at;
    this.latencies.push(latency);
    if (DIAG && latency > SLOW_MS)
      this.slow.push(`${new Date(Date.now() - latency).toISOString().slice(17, 23)}+${latency.toFixed(0)}`);
  }
  /** BENCH_DIAG: the sends slower than SLOW_MS, as "<due time>+<ms>". */
  readonly slow: string[] = [];
  answered(at: number) {
    this.answers.push(performance.now() - at);
  }
  fail(key: string, error: string) {
    if (!this.due.delete(key)) return;
    this.failed++;
    this.firstError ??= error;
  }
  get outstanding() {
    return this.due.size;
  }
}

// ---------------------------------------------------------------- CPU per message

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's /proc stat fields after its name (field 3 on), or null. */
function statOf(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** CPU time (user + system, seconds) of a process so far, with its reaped children's if `reaped`. */
function cpuSeconds(pid: number, reaped = false): number | null {
  const fields = statOf(pid);
  if (!fields) return null;
  const own = Number(fields[11]) + Number(fields[12]);
  return (reaped ? own + Number(fields[13]) + Number(fields[14]) : own) / TICKS_PER_SECOND;
}

/**
 * CPU seconds so far of every process named `name` and of the children of the first of them (the
 * PostgreSQL server and its backends, including those that ended: their time is in the parent's
 * reaped-children counters, so a backend that exits between two samples does not take its time away).
 */
function cpuSecondsOfTree(name: string): number | null {
  const named: { pid: number; ppid: number }[] = [];
  const byParent = new Map<number, number[]>();
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      const fields = statOf(pid);
      if (!fields) continue;
      const ppid = Number(fields[1]);
      byParent.set(ppid, [...(byParent.get(ppid) ?? []), pid]);
      try {
        if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === name) named.push({ pid, ppid });
      } catch {
        // The process ended while we looked.
      }
    }
  } catch {
    return null;
  }
  const pids = new Set(named.map((p) => p.pid));
  const roots = named.filter((p) => !pids.has(p.ppid));
  let total = 0;
  for (const root of roots) {
    total += cpuSeconds(root.pid, true) ?? 0;
    for (const child of byParent.get(root.pid) ?? []) total += cpuSeconds(child) ?? 0;
  }
  return roots.length ? total : null;
}

interface CpuSample {
  servers: number | null;
  postgres: number | null;
  redis: number | null;
}

const sampleCpu = (pids: readonly number[]): CpuSample => {
  const each = pids.map((pid) => cpuSeconds(pid));
  return {
    servers: each.some((value) => value === null) ? null : each.reduce<number>((sum, value) => sum + (value ?? 0), 0),
    postgres: cpuSecondsOfTree("postgres"),
    redis: cpuSecondsOfTree("redis-server"),
  };
};

/**
 * CPU milliseconds per delivered message between two samples: the side's server processes, PostgreSQL
 * (the server and all its processes: the other side's idle connections, the WAL writer, checkpoints
 * and autovacuum count too) and Redis. Steadier than a p99 on a shared box: what a send costs, whatever waited.
 */
function cpuPerMessage(before: CpuSample, after: CpuSample, messages: number): CpuSample | null {
  if (messages <= 0) return null;
  const per = (a: number | null, b: number | null) => (a === null || b === null ? null : ((b - a) * 1000) / messages);
  return {
    servers: per(before.servers, after.servers),
    postgres: per(before.postgres, after.postgres),
    redis: per(before.redis, after.redis),
  };
}

interface StepResult {
  rate: number;
  /** CPU ms per delivered message or frame (see cpuPerMessage). */
  cpu: CpuSample | null;
  sent: number;
  p50: number;
  p99: number;
  lost: number;
  /** How long until the sender had its answer (the send's own part of the latency), if any. */
  answer: { p50: number; p99: number } | null;
  /** How late the schedule itself ran at worst (the load generator's own lag), ms. */
  lag: number;
  error: string | null;
}

const percentile = (sorted: number[], q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Infinity;
const answerPercentiles = (sorted: number[]) => ({ p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) });

/** A side of the comparison: how one of its members sends, and the tracker its receivers report to. */
interface Side {
  label: string;
  /**
   * Its own members: the sides never share a member or a conversation, so what one side still has queued
   * never waits for the other's locks.
   */
  members: BenchMember[];
  tracker: Tracker;
  /** Its server processes (for CPU per message). */
  pids: number[];
  send(member: BenchMember, due: number): void;
}

/**
 * Sends at `rate` per second for `seconds` (members in the order of `pick`, each send at its due time, not
 * waiting for answers), then waits up to BENCH_DRAIN_MS for the stragglers.
 */
async function runStep(side: Side, rate: number, seconds: number): Promise<StepResult> {
  await vacuumBetweenSteps();
  const list = side.members;
  // One member of each pair per round, alternating between the nodes, the other one a round later: the
  // two members of a conversation do not send within milliseconds of each other (which would make every
  // second send wait for the pair's locks), and each member sends once every two rounds.
  const half = list.length / 2;
  const pick = (k: number) => {
    const pair = k % half;
    return list[2 * pair + ((pair + Math.floor(k / half)) % 2)] as BenchMember;
  };
  side.tracker = new Tracker();
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const cpuBefore = sampleCpu(side.pids);
  const begin = performance.now() + 5;
  let sent = 0;
  let lag = 0;
  while (sent < total) {
    const now = performance.now();
    while (sent < total && begin + sent * interval <= now) {
      const due = begin + sent * interval;
      lag = Math.max(lag, now - due);
      side.send(pick(sent), due);
      sent++;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const until = performance.now() + drainMs;
  while (side.tracker.outstanding > 0 && performance.now() < until) await sleep(10);
  const { tracker } = side;
  const cpu = cpuPerMessage(cpuBefore, sampleCpu(side.pids), tracker.latencies.length);
  const lost = tracker.outstanding + tracker.failed;
  const sorted = [...tracker.latencies, ...new Array<number>(lost).fill(Infinity)].sort((a, b) => a - b);
  // What is still queued (an overloaded step) finishes before the next step starts, up to 30 s.
  const settled = performance.now() + 30_000;
  while (tracker.outstanding > 0 && performance.now() < settled) await sleep(50);
  return {
    rate,
    cpu,
    sent: total,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    lost,
    lag,
    answer: tracker.answers.length ? answerPercentiles([...tracker.answers].sort((a, b) => a - b)) : null,
    error: tracker.firstError,
  };
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "lost");
const describe = (r: StepResult) =>
  `${String(r.rate).padStart(6)}/s  p50 ${ms(r.p50).padStart(9)}  p99 ${ms(r.p99).padStart(9)}` +
  `${r.answer === null ? "" : `  (sender's answer p50 ${ms(r.answer.p50)}, p99 ${ms(r.answer.p99)})`}` +
  `${r.lost ? `  ${r.lost} of ${r.sent} lost${r.error ? ` (${r.error})` : ""}` : ""}` +
  `${r.lag > 50 ? `  (generator ${r.lag.toFixed(0)} ms late)` : ""}` +
  `${r.cpu ? `\n${"".padEnd(13)}CPU per message: servers ${cpuMs(r.cpu.servers)}, PostgreSQL ${cpuMs(r.cpu.postgres)}, Redis ${cpuMs(r.cpu.redis)}` : ""}`;
const cpuMs = (value: number | null) => (value === null ? "?" : `${value.toFixed(2)} ms`);

/** Steps both sides through `stepRates` (alternating at each step), each until its p99 goes over the limit. */
async function stepUp(title: string, sides: Side[], stepRates: number[]) {
  console.log(`\n${title}: ${stepSeconds} s per step, p99 limit ${p99Limit} ms`);
  const best = new Map<Side, StepResult | null>(sides.map((side) => [side, null]));
  const running = new Set(sides);
  // A warm-up at the first rate (JIT, pools, every member's first send), not counted.
  for (const side of sides) await runStep(side, stepRates[0] ?? 100, warmupSeconds);
  for (const rate of stepRates) {
    for (const side of sides) {
      if (!running.has(side)) continue;
      const result = await runStep(side, rate, stepSeconds);
      console.log(`  ${side.label.padEnd(10)} ${describe(result)}`);
      if (side.tracker.slow.length > 0) {
        console.log(
          `${"".padEnd(13)}${side.tracker.slow.length} over ${SLOW_MS} ms: ${side.tracker.slow.slice(0, 20).join(" ")}`,
        );
      }
      if (result.p99 <= p99Limit) best.set(side, result);
      else running.delete(side);
      await sleep(500);
    }
    if (running.size === 0) break;
  }
  const [ours, theirs] = sides.map((side) => best.get(side) ?? null);
  for (const side of sides) {
    const result = best.get(side);
    console.log(
      `  => ${side.label.padEnd(10)} ${result ? `${result.rate}/s with p50 ${ms(result.p50)}, p99 ${ms(result.p99)}` : `none of the rates within ${p99Limit} ms`}`,
    );
  }
  if (!ours || !theirs) return;
  const top = stepRates.at(-1);
  const held = [ours, theirs].filter((result) => result.rate === top).length;
  const note = ["", " (at least: ours held the top step)", " (both held the top step: raise BENCH_*_RATES)"];
  const bound = held === 1 && theirs.rate === top ? " (at most: Socket.IO held the top step)" : note[held];
  console.log(`  ratio ours / Socket.IO: ${(ours.rate / theirs.rate).toFixed(2)}${bound}`);
}

// ---------------------------------------------------------------- clients

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i] as T);
      }
    }),
  );
  return results;
}

interface Receivers {
  message(text: string): void;
  typing(member: BenchMember): void;
  /** Ours: the answer to a `send` frame (error null when stored). */
  answer?(clientId: string, error: string | null): void;
}

function connectOurs(url: string, member: BenchMember, on: Receivers): Promise<WebSocket> {
  const socket = new WebSocket(`${url.replace("http", "ws")}/ws`, {
    headers: { cookie: `${SESSION_COOKIE}=${member.token}`, "x-forwarded-for": member.address },
  });
  return new Promise((resolve, reject) => {
    socket.on("message", (raw) => {
      const frame = JSON.parse(raw.toString()) as ServerFrame;
      if (frame.type === "hello") resolve(socket);
      else if (frame.type === "sent") on.answer?.(frame.answer.message.client_id ?? "", null);
      else if (frame.type === "send_failed") on.answer?.(frame.client_id, `${frame.status} ${frame.body.error}`);
      else if (frame.type !== "event") return;
      else if (frame.event.type === "chat.message" && !frame.event.message.from_me) on.message(frame.event.message.text ?? "");
      else if (frame.event.type === "chat.typing") on.typing(member);
    });
    socket.once("error", reject);
    socket.once("unexpected-response", (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
  });
}

function connectTheirs(url: string, member: BenchMember, on: Receivers): Promise<Socket> {
  const socket = connectSocketIo(url, {
    transports: ["websocket"],
    auth: { token: member.token },
    forceNew: true,
    reconnection: false,
  });
  socket.on("chat.message", (event: { message: { text: string } }) => on.message(event.message.text));
  socket.on("chat.typing", () => on.typing(member));
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

/**
 * Typing events carry no id: each recipient's frames arrive in the order its partner sent them, so the
 * n-th one a member receives is the n-th one sent to it (counters kept for the whole run).
 */
class TypingOrder {
  private readonly sent: number[];
  private readonly received: number[];
  constructor(count: number) {
    this.sent = new Array<number>(count).fill(0);
    this.received = new Array<number>(count).fill(0);
  }
  /** The key of the next frame to `recipient`, and whether it is a start (starts and stops alternate). */
  nextSent(recipient: number): { key: string; typing: boolean } {
    const n = this.sent[recipient] ?? 0;
    this.sent[recipient] = n + 1;
    return { key: `${recipient}:${n}`, typing: n % 2 === 0 };
  }
  nextReceived(recipient: number) {
    const n = this.received[recipient] ?? 0;
    this.received[recipient] = n + 1;
    return `${recipient}:${n}`;
  }
}

/**
 * The rows every send updates (balances, conversations' sequence numbers, the members' sides and event
 * sequence rows: both sides' tables) leave a dead version per send, which autovacuum clears in any
 * deployment; it is off on this kind of box (the CI's PostgreSQL configuration), and without it a send's
 * cost in PostgreSQL grew from step to step (ours, which updates four rows per send against Socket.IO's
 * two: 0.62 to 0.89 ms over five steps at the same rate; 0.57 to 0.61 with this). So the bench vacuums
 * those tables before each step, for both sides, outside the measured seconds. BENCH_VACUUM=off skips it.
 */
async function vacuumBetweenSteps(): Promise<void> {
  if (env.BENCH_VACUUM === "off" || !bench) return;
  const client = new pg.Client({ connectionString: bench.url });
  await client.connect();
  try {
    await client.query("vacuum conversations, conversation_members, credit_accounts, member_event_seqs");
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------- the run

let setupFailed = false;
const prefix = `bench:chat:${randomBytes(4).toString("hex")}:`;
const synchronousCommit = env.BENCH_SYNCHRONOUS_COMMIT === "on" ? "on" : "off";
const bench = await openBenchApp(adminUrl, "bench_chat", { synchronousCommit }).catch((error: unknown) => {
  console.error(`bench:chat needs PostgreSQL at ${adminUrl} (BENCH_DATABASE_URL): ${String(error)}`);
  setupFailed = true;
  return null;
});
const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
redis.on("error", () => undefined);
if (bench) {
  await redis.connect().catch((error: unknown) => {
    console.error(`bench:chat needs Redis at ${redisUrl} (BENCH_REDIS_URL): ${String(error)}`);
    setupFailed = true;
  });
}
const servers: ServerProcess[] = [];
try {
  if (!bench || setupFailed) throw new Error("no database or no Redis");
  const { settings } = (await bench.app.server.inject({ url: "/api/settings.php" })).json() as {
    settings: { message_credits: number };
  };
  const client = new pg.Client({ connectionString: bench.url });
  await client.connect();
  client.on("error", () => undefined);
  const started = Date.now();
  const all = await insertMembers(client, Math.max(2 * members, parts.has("memory") ? idleConnections : 0));
  await client.end();
  console.log(
    `node ${process.version}; ${all.length} members with sessions and ${all.length / 2} conversations in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
      `servers in child processes, clients in this one; PostgreSQL ${adminUrl.replace(/\/\/[^@]*@/, "//")} ` +
      `(synchronous_commit ${synchronousCommit}), Redis ${redisUrl}`,
  );
  const serverEnv = {
    BENCH_DB_URL: bench.url,
    BENCH_REDIS_URL: redisUrl,
    BENCH_PREFIX: prefix,
    BENCH_MESSAGE_COST: String(settings.message_credits),
  };
  // Ours and Socket.IO each get their own members and conversations, indexed from 0.
  const sideMembers = (from: number) =>
    all
      .slice(from, from + members)
      .map((member, index) => ({ ...member, index, partner: index % 2 === 0 ? index + 1 : index - 1 }));
  const list = sideMembers(0);
  const theirList = sideMembers(members);
  console.log(
    `one send over HTTP runs ${await statementsOfOneSend(bench.app.server, list[0] as BenchMember)} SQL statements in ours, ` +
      "the session's included, which a socket send checks inside its own (Socket.IO's: 7)",
  );

  if (parts.has("messages") || parts.has("typing")) {
    const [oursA, oursB, theirsA, theirsB] = await Promise.all([
      startServer("ours", serverEnv),
      startServer("ours", serverEnv),
      startServer("socketio", serverEnv),
      startServer("socketio", serverEnv),
    ]);
    servers.push(oursA, oursB, theirsA, theirsB);
    const nodeOf = <T>(member: BenchMember, a: T, b: T) => (member.index % 2 === 0 ? a : b);

    // Message keys (the text) are unique in the run: a straggler of an earlier step matches nothing later.
    let messageKeys = 0;
    const oursTyping = new TypingOrder(list.length);
    const theirsTyping = new TypingOrder(theirList.length);
    const pools = new Map(
      [oursA, oursB].map((server) => [server, new Pool(server.url, { connections: httpConnections })] as const),
    );
    const oursPids = [oursA.pid, oursB.pid];
    /** Ours over the socket: the sends waiting for their `sent` frame, by client_id. */
    const awaitingAnswer = new Map<string, { key: string; due: number }>();
    const theirPids = [theirsA.pid, theirsB.pid];
    const ours: Side & { typing: Side } = {
      label: "ours",
      members: list,
      tracker: new Tracker(),
      pids: oursPids,
      send: (member, due) => {
        const key = `m${++messageKeys}`;
        const { tracker } = ours;
        tracker.start(key, due);
        const clientId = randomUUID();
        if (sendOver === "socket") {
          awaitingAnswer.set(clientId, { key, due });
          const socket = oursSockets[member.index] as WebSocket;
          socket.send(
            JSON.stringify({ type: "send", message: { conversation_id: member.conversationId, client_id: clientId, text: key } }),
          );
          return;
        }
        const pool = pools.get(nodeOf(member, oursA, oursB)) as Pool;
        pool
          .request({
            method: "POST",
            path: "/api/message.php",
            headers: {
              cookie: `${SESSION_COOKIE}=${member.token}`,
              "x-forwarded-for": member.address,
              "content-type": "application/json",
            },
            body: JSON.stringify({ conversation_id: member.conversationId, client_id: clientId, text: key }),
          })
          .then(async (response) => {
            const body = await response.body.text();
            if (response.statusCode !== 200) tracker.fail(key, `HTTP ${response.statusCode} ${body.slice(0, 120)}`);
            else tracker.answered(due);
          })
          .catch((error: unknown) => tracker.fail(key, String(error)));
      },
      typing: {
        label: "ours",
        members: list,
        tracker: new Tracker(),
        pids: oursPids,
        send: (member, due) => {
          const { key, typing } = oursTyping.nextSent(member.partner);
          ours.typing.tracker.start(key, due);
          const socket = oursSockets[member.index] as WebSocket;
          socket.send(JSON.stringify({ type: "typing", conversation_id: member.conversationId, typing }));
        },
      },
    };
    const theirs: Side & { typing: Side } = {
      label: "Socket.IO",
      members: theirList,
      tracker: new Tracker(),
      pids: theirPids,
      send: (member, due) => {
        const key = `m${++messageKeys}`;
        const { tracker } = theirs;
        tracker.start(key, due);
        const socket = theirSockets[member.index] as Socket;
        socket.emit(
          "send",
          { conversation_id: member.conversationId, client_id: randomUUID(), text: key },
          (answer: { error?: string }) => {
            if (answer.error) tracker.fail(key, answer.error);
            else tracker.answered(due);
          },
        );
      },
      typing: {
        label: "Socket.IO",
        members: theirList,
        tracker: new Tracker(),
        pids: theirPids,
        send: (member, due) => {
          const { key, typing } = theirsTyping.nextSent(member.partner);
          theirs.typing.tracker.start(key, due);
          (theirSockets[member.index] as Socket).emit("typing", { conversation_id: member.conversationId, typing });
        },
      },
    };
    const oursSockets = await inBatches(list, 50, (member) =>
      connectOurs(nodeOf(member, oursA, oursB).url, member, {
        message: (text) => ours.tracker.arrived(text),
        typing: (m) => ours.typing.tracker.arrived(oursTyping.nextReceived(m.index)),
        answer: (clientId, error) => {
          const waiting = awaitingAnswer.get(clientId);
          if (!waiting) return;
          awaitingAnswer.delete(clientId);
          if (error) ours.tracker.fail(waiting.key, error);
          else ours.tracker.answered(waiting.due);
        },
      }),
    );
    const theirSockets = await inBatches(theirList, 50, (member) =>
      connectTheirs(nodeOf(member, theirsA, theirsB).url, member, {
        message: (text) => theirs.tracker.arrived(text),
        typing: (m) => theirs.typing.tracker.arrived(theirsTyping.nextReceived(m.index)),
      }),
    );
    console.log(
      `${list.length} members connected to each pair of nodes (${list.length / 2} per node; each side its own members), pairs across nodes`,
    );

    if (parts.has("messages")) {
      await stepUp(
        `1. paid messages (ours: ${sendOver === "socket" ? 'the "send" frame on the socket' : "POST /api/message.php"}; Socket.IO: emit "send"; ${settings.message_credits} credits each)`,
        [ours, theirs],
        messageRates,
      );
    }
    if (parts.has("typing")) {
      await stepUp("2. typing fan-out (no transaction)", [ours.typing, theirs.typing], typingRates);
    }
    for (const socket of oursSockets) socket.close();
    for (const socket of theirSockets) socket.close();
    await Promise.all([...pools.values()].map((pool) => pool.close()));
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  }

  if (parts.has("memory")) {
    const idle = all.slice(0, idleConnections);
    console.log(`\n3. memory per idle connection: ${idle.length} authenticated idle sockets on one fresh server process`);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const perConnection: Record<string, { rss: number; heap: number }> = {};
    for (const kind of ["ours", "socketio"] as const) {
      const server = await startServer(kind, serverEnv);
      servers.push(server);
      const ignore: Receivers = { message: () => undefined, typing: () => undefined };
      const connect = (member: BenchMember): Promise<WebSocket | Socket> =>
        kind === "ours" ? connectOurs(server.url, member, ignore) : connectTheirs(server.url, member, ignore);
      const close = (socket: WebSocket | Socket) => (socket instanceof WebSocket ? socket.close() : socket.disconnect());
      // A first round of 100 sockets loads the code paths; then the baseline.
      for (const socket of await inBatches(idle.slice(0, 100), 50, connect)) close(socket);
      await sleep(1_000);
      const before = await server.memory();
      const sockets = await inBatches(idle, 50, connect);
      await sleep(2_000);
      const after = await server.memory();
      const count = after.connections - before.connections;
      const delta = (key: keyof NodeJS.MemoryUsage) => (after.usage[key] - before.usage[key]) / count;
      perConnection[kind] = { rss: delta("rss"), heap: delta("heapUsed") + delta("external") };
      console.log(
        `  ${(kind === "ours" ? "ours" : "Socket.IO").padEnd(10)} ${count} sockets, per connection: rss ${kb(delta("rss"))}, ` +
          `heap used ${kb(delta("heapUsed"))} (heap total ${kb(delta("heapTotal"))}), external ${kb(delta("external"))}; ` +
          `process rss ${(before.usage.rss / 1024 / 1024).toFixed(0)} → ${(after.usage.rss / 1024 / 1024).toFixed(0)} MB`,
      );
      for (const socket of sockets) close(socket);
      await server.stop();
      servers.splice(servers.indexOf(server), 1);
    }
    const { ours, socketio } = perConnection;
    if (ours && socketio)
      console.log(
        `  ratio ours / Socket.IO per connection: rss ${(ours.rss / socketio.rss).toFixed(2)}, heap used + external ${(ours.heap / socketio.heap).toFixed(2)}`,
      );
  }
} catch (error) {
  if (!setupFailed) console.error(error);
  process.exitCode = 1;
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  for (const child of children) child.kill("SIGKILL");
  if (redis.status === "ready") {
    // The rate limiter's counters (pub/sub leaves no keys); everything under this run's prefix.
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  }
  redis.disconnect();
  await bench?.close({ keep: !!env.BENCH_KEEP });
}
