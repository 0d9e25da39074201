/**
 * One server process of bench/chat.ts, started by it with `--expose-gc` and an IPC channel:
 *
 *   ours      one node of the real server (buildApp, API only) on the bench database and Redis, behind a
 *             trusted proxy hop (TRUST_PROXY=1), so that each bench member has its own client address
 *             (X-Forwarded-For), as members behind a load balancer have: the per-address socket cap and
 *             the send rate limit count per member, not for the whole bench.
 *   socketio  the comparison: Socket.IO with @socket.io/redis-adapter on the same database and Redis. A
 *             socket authenticates with its session token (the same sessions table, one query) and joins
 *             its profile's room and its conversations' rooms. `send` runs the paid message's minimal
 *             transaction on the same tables with the statements ours uses for these steps (the credits'
 *             advisory lock, the guarded balance update, the ledger row, the conversation's next seq, the
 *             message row; 7 statements with begin and commit, where ours runs 6 with its session check,
 *             idempotency, visibility, pair lock and durable events), then emits `chat.message` to the recipient's
 *             profile room and answers the sender by acknowledgement.
 *             `typing` is forwarded to the conversation's room (a room the socket joined), no database.
 *
 * Environment: BENCH_DB_URL, BENCH_REDIS_URL, BENCH_PREFIX (Redis channel prefix), BENCH_MESSAGE_COST;
 * BENCH_DIAG=1 writes to stderr, with the time (seconds.milliseconds of the minute): every statement that
 * took over 40 ms to answer, garbage collections over 15 ms, and event-loop turns late by over 40 ms
 * (what found the disk's slow commits and the pool's cold connections; decision 020).
 * IPC: sends {type: "ready", port}; answers {type: "memory"} with {type: "memory", usage, connections}
 * (after full garbage collections); {type: "stop"} closes everything and exits.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAdapter } from "@socket.io/redis-adapter";
import { Redis } from "ioredis";
import pg from "pg";
import { Server } from "socket.io";

const kind = process.argv[2];
const databaseUrl = process.env.BENCH_DB_URL ?? "";
const redisUrl = process.env.BENCH_REDIS_URL ?? "";
const prefix = process.env.BENCH_PREFIX ?? "bench:";
const cost = Number(process.env.BENCH_MESSAGE_COST ?? 10);

/** The credits module's advisory lock namespace (credits/queries.ts: CREDITS_LOCK). */
const CREDITS_LOCK = 7_201_004;

interface Started {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

async function startOurs(): Promise<Started> {
  const { buildApp } = await import("../apps/server/src/app.ts");
  const { loadConfig } = await import("../apps/server/src/platform/config.ts");
  const dataDir = await mkdtemp(path.join(tmpdir(), "bench-chat-node-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    TRUST_PROXY: "1",
    ...(process.env.BENCH_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE } : {}),
  });
  const app = await buildApp(config, { web: false });
  await app.server.listen({ host: "127.0.0.1", port: 0 });
  return {
    port: (app.server.server.address() as AddressInfo).port,
    connections: () => app.ws.connectionCount(),
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface SendBody {
  conversation_id: number;
  client_id: string;
  text: string;
}
type Ack = (answer: unknown) => void;

async function startSocketIo(): Promise<Started> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on("error", () => undefined);
  const pub = new Redis(redisUrl);
  const sub = pub.duplicate();
  const http = createServer();
  const io = new Server(http, {
    transports: ["websocket"],
    serveClient: false,
    adapter: createAdapter(pub, sub, { key: `${prefix}socket.io` }),
  });

  io.use(async (socket, next) => {
    const token = String(socket.handshake.auth.token ?? "");
    const hash = createHash("sha256").update(token).digest("hex");
    try {
      const { rows } = await pool.query<{ user_id: number; profile_id: number }>(
        `select s.user_id, p.id as profile_id from sessions s join profiles p on p.user_id = s.user_id
         where s.token_hash = $1 and s.expires_at > now()`,
        [hash],
      );
      const found = rows[0];
      if (!found) return next(new Error("authentication_required"));
      const conversations = await pool.query<{ conversation_id: number }>(
        "select conversation_id from conversation_members where profile_id = $1",
        [found.profile_id],
      );
      socket.data = { userId: found.user_id, profileId: found.profile_id };
      await socket.join([`p:${found.profile_id}`, ...conversations.rows.map((row) => `c:${row.conversation_id}`)]);
      next();
    } catch (error) {
      next(error as Error);
    }
  });

  io.on("connection", (socket) => {
    const { userId, profileId } = socket.data as { userId: number; profileId: number };
    socket.on("send", async (body: SendBody, ack: Ack) => {
      const client = await pool.connect();
      try {
        await client.query("begin");
        await client.query("select pg_advisory_xact_lock($1::int, $2::int)", [CREDITS_LOCK, userId]);
        const debit = await client.query<{ balance: number }>(
          `update credit_accounts set balance = balance - $2, updated_at = now()
           where user_id = $1 and balance - $2 >= 0 returning balance`,
          [userId, cost],
        );
        const balance = debit.rows[0]?.balance;
        if (balance === undefined) {
          await client.query("rollback");
          return ack({ error: "not_enough_credits" });
        }
        await client.query(
          "insert into credit_ledger (user_id, delta, balance_after, reason, key) values ($1, $2, $3, 'message', $4)",
          [userId, -cost, balance, `message:${body.client_id}`],
        );
        const conversation = await client.query<{ last_seq: number; updated_at: Date; other_id: number }>(
          `update conversations set last_seq = last_seq + 1, updated_at = now()
           where id = $1 and $2 in (profile_a, profile_b)
           returning last_seq, updated_at, case when profile_a = $2 then profile_b else profile_a end as other_id`,
          [body.conversation_id, profileId],
        );
        const side = conversation.rows[0];
        if (!side) {
          await client.query("rollback");
          return ack({ error: "not_found" });
        }
        const stored = await client.query<{ id: number; created_at: Date }>(
          `insert into messages (conversation_id, seq, sender_id, client_id, text, created_at)
           values ($1, $2, $3, $4::uuid, $5, $6) returning id, created_at`,
          [body.conversation_id, side.last_seq, profileId, body.client_id, body.text, side.updated_at],
        );
        await client.query("commit");
        const row = stored.rows[0] as { id: number; created_at: Date };
        const message = {
          id: row.id,
          profile_id: profileId,
          text: body.text,
          created_at: row.created_at.toISOString(),
        };
        io.to(`p:${side.other_id}`).emit("chat.message", { conversation_id: body.conversation_id, message });
        ack({ conversation_id: body.conversation_id, message, credits: balance });
      } catch (error) {
        await client.query("rollback").catch(() => undefined);
        ack({ error: String(error) });
      } finally {
        client.release();
      }
    });
    socket.on("typing", (body: { conversation_id: number; typing: boolean }) => {
      const room = `c:${body.conversation_id}`;
      if (!socket.rooms.has(room)) return;
      socket.to(room).emit("chat.typing", { conversation_id: body.conversation_id, typing: body.typing });
    });
  });

  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    port: (http.address() as AddressInfo).port,
    connections: () => io.engine.clientsCount,
    close: async () => {
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.allSettled([pub.quit(), sub.quit(), pool.end()]);
    },
  };
}

const send = (message: unknown) => process.send?.(message);
if (process.env.BENCH_DIAG) await diagnose(kind ?? "?");

/** BENCH_DIAG: what made a send slow, as it happens (see the header). */
async function diagnose(label: string) {
  const { PerformanceObserver } = await import("node:perf_hooks");
  const report = (what: string) => console.error(`${label} ${process.pid} ${new Date().toISOString().slice(17, 23)} ${what}`);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // perf_hooks' kinds: 1 minor (scavenge), 2 major (mark-compact), 4 incremental marking, 8 weak callbacks.
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      const name = { 1: "minor", 2: "major", 4: "incremental", 8: "weak callbacks" }[kind ?? 0] ?? "gc";
      if (entry.duration > 15) report(`gc (${name}) ${entry.duration.toFixed(0)} ms`);
    }
  }).observe({ entryTypes: ["gc"] });
  const client = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = client.query;
  client.query = function (this: unknown, config: unknown, ...rest: unknown[]) {
    const text = typeof config === "string" ? config : ((config as { text?: string } | null)?.text ?? "?");
    const started = performance.now();
    const answer = query.call(this, config, ...rest);
    if (answer instanceof Promise) {
      answer.then(
        () => {
          const took = performance.now() - started;
          if (took > 40) report(`statement ${took.toFixed(0)} ms: ${text.replace(/\s+/g, " ").slice(0, 60)}`);
        },
        () => undefined,
      );
    }
    return answer;
  };
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 60) report(`event loop ${(now - last - 20).toFixed(0)} ms late`);
    last = now;
  }, 20).unref();
}
const started = kind === "ours" ? await startOurs() : kind === "socketio" ? await startSocketIo() : null;
if (!started) throw new Error(`unknown server kind ${kind}`);

process.on("message", async (message: { type: string }) => {
  if (message.type === "memory") {
    // Twice: the first full collection can leave weakly held and finalised objects for the next one.
    globalThis.gc?.();
    globalThis.gc?.();
    send({ type: "memory", usage: process.memoryUsage(), connections: started.connections() });
  } else if (message.type === "stop") {
    await started.close().catch(() => undefined);
    process.exit(0);
  }
});
// The bench went away without stopping us: do not stay behind.
process.on("disconnect", () => process.exit(0));
send({ type: "ready", port: started.port });
