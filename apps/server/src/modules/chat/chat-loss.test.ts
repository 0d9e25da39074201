import { randomBytes, randomUUID } from "node:crypto";
import {
  type ChatMessage,
  chatResponseSchema,
  chatsResponseSchema,
  type MemberEvent,
  messageResponseSchema,
  type ServerFrame,
  serverFrameSchema,
} from "@app/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { MemoryBus, type RedisBus } from "../../platform/bus.ts";
import type { Database } from "../../platform/db/index.ts";
import { seed } from "../../seed/seed.ts";
import { createMember, sqlRows } from "../../test/factories.ts";
import {
  openTestBus,
  openTestDatabase,
  startTestApp,
  type TestApp,
  type TestDatabase,
  usingPostgres,
  usingRedis,
} from "../../test/harness.ts";

/**
 * Issue #10, "never lose a message": members chat across two server nodes while their WebSockets are cut
 * at random and one node dies and comes back; at the end every member's view equals the database.
 * 200 members on PostgreSQL (CI's run with Redis); 40 on the embedded PGlite, whose single in-process
 * connection serialises every transaction.
 */
const MEMBERS = usingPostgres ? 200 : 40;
const MESSAGES_EACH = 10;
/** Settings of the default site: a message costs 10 credits. */
const COST = 10;
const GRANT = 1_000;
/** Each round cuts this share of the open WebSockets. */
const DROP_SHARE = 0.05;
/** The web asks for missed events with each ping (every 25 s); the test's clients, sooner. */
const CATCH_UP_MS = Number(process.env.CHAT_LOSS_CATCH_UP_MS ?? 3_000);
/** Every client address its own (behind a proxy, as in production): no per-address cap or rate limit is shared. */
const NODE_ENV = { TRUST_PROXY: "true" };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const jitter = (from: number, to: number) => from + Math.random() * (to - from);

/** Waits until `done()` holds, polling; false when `timeoutMs` passed first. */
async function until(done: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await done()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

/** A server node that can die abruptly: its publishes stop (as a process dying after commit), its sockets reset. */
interface Node {
  name: string;
  app: TestApp;
  database: Database;
  port: number;
  url: string;
  up: boolean;
  /** Events the dead node committed but never published: its clients must find them by resuming. */
  lost: number;
  stopped?: Promise<void>;
}

let database: TestDatabase;
let sharedBus: MemoryBus | null = null;
const busPrefix = `test:${randomBytes(6).toString("hex")}:`;
const nodes: Node[] = [];
const allNodes: Node[] = [];

/** A node's own bus: a Redis connection of its own, or on the in-process bus a handle whose close leaves the others' running. */
async function nodeBus() {
  if (usingRedis) return (await openTestBus(busPrefix)) as RedisBus;
  sharedBus ??= new MemoryBus();
  const handle = Object.create(sharedBus) as MemoryBus;
  // The hub unsubscribes its own channels on close; the shared emitter stays for the other node.
  handle.close = async () => {};
  return handle;
}

async function startNode(name: string, port = 0): Promise<Node> {
  const nodeDatabase = usingPostgres ? await database.connectAgain({ poolSize: 10 }) : database;
  const app = await startTestApp(nodeDatabase, { bus: await nodeBus(), env: NODE_ENV, listen: false });
  await app.server.listen({ host: "127.0.0.1", port });
  const address = app.server.server.address();
  const actual = address && typeof address === "object" ? address.port : port;
  const node: Node = { name, app, database: nodeDatabase, port: actual, url: `http://127.0.0.1:${actual}`, up: true, lost: 0 };
  allNodes.push(node);
  return node;
}

/**
 * Kills a node as a crash would: from now on it publishes nothing (a request in flight still commits,
 * as one whose process died between commit and publish), refuses connections, and every HTTP
 * connection and WebSocket it holds is reset without a closing handshake.
 */
function kill(node: Node): void {
  node.up = false;
  node.app.services.bus.publish = async () => {
    node.lost++;
  };
  const http = node.app.server.server;
  http.close();
  http.closeAllConnections();
  for (const socket of node.app.server.websocketServer.clients) socket.terminate();
  // What is left (jobs, the bus connection) goes in the background while the other node serves.
  node.stopped = node.app.stop().then(async () => {
    if (usingPostgres) await node.database.close();
  });
}

const upNodes = () => nodes.filter((n) => n.up);

class FatalResponse extends Error {}

interface Sent {
  clientId: string;
  id: number;
  conversationId: number;
  senderUserId: number;
}

/**
 * One member's client, as the web's: HTTP calls retried on the other node when one fails (network
 * error, 5xx), sends idempotent by a client_id kept across retries, and a WebSocket that keeps the
 * last `seq`, reconnects to either node, resumes after it, drops what it has seen, asks again on a
 * gap and every CATCH_UP_MS, and reloads the conversations on `resync`.
 */
class ChatClient {
  lastSeq: number | null = null;
  socket: WebSocket | null = null;
  /** The current socket said hello. */
  open = false;
  /** The member's view: conversation id → message id → message. */
  readonly view = new Map<number, Map<number, ChatMessage>>();
  /** Message ids the events delivered (after dropping seen seqs): any second one is a message shown twice. */
  readonly delivered = new Set<number>();
  doubled = 0;
  seenAgain = 0;
  resumes = 0;
  resyncs = 0;
  connects = 0;
  reloading = 0;
  readonly sent: Sent[] = [];
  private stopped = false;

  constructor(
    readonly index: number,
    readonly userId: number,
    readonly profileId: number,
    private readonly cookie: string,
    readonly address: string,
    private readonly home: number,
  ) {}

  /** A live node: the member's own first, the other one after a failure. */
  private node(attempt: number): Node | undefined {
    const live = upNodes();
    return live.find((n) => nodes.indexOf(n) === (this.home + attempt) % nodes.length) ?? live[0];
  }

  async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const deadline = Date.now() + 120_000;
    for (let attempt = 0; ; attempt++) {
      const node = this.node(attempt);
      if (node) {
        try {
          const response = await fetch(node.url + path, {
            method,
            headers: {
              cookie: this.cookie,
              "x-forwarded-for": this.address,
              ...(body === undefined ? {} : { "content-type": "application/json" }),
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            signal: AbortSignal.timeout(30_000),
          });
          const text = await response.text();
          if (response.status === 200) return JSON.parse(text) as T;
          if (response.status < 500) throw new FatalResponse(`${method} ${path}: ${response.status} ${text}`);
        } catch (error) {
          if (error instanceof FatalResponse) throw error;
          // A reset connection, a refused one, a timeout: the same call again, elsewhere.
        }
      }
      if (Date.now() > deadline) throw new Error(`${method} ${path}: no node answered for 2 minutes`);
      await sleep(jitter(20, 100) * Math.min(attempt + 1, 5));
    }
  }

  /** Sends until acknowledged, always with the same client_id. */
  async send(to: ChatClient, text: string): Promise<void> {
    const clientId = randomUUID();
    const answer = messageResponseSchema.parse(
      await this.call("POST", "/api/message.php", { profile_id: to.profileId, client_id: clientId, text }),
    );
    expect(answer.message).toMatchObject({ client_id: clientId, text, from_me: true });
    this.show(answer.conversation_id, answer.message);
    this.sent.push({ clientId, id: answer.message.id, conversationId: answer.conversation_id, senderUserId: this.userId });
  }

  private show(conversationId: number, message: ChatMessage): void {
    let messages = this.view.get(conversationId);
    if (!messages) {
      messages = new Map();
      this.view.set(conversationId, messages);
    }
    messages.set(message.id, message);
  }

  connect(): void {
    if (this.stopped) return;
    const live = upNodes();
    const node = live[Math.floor(Math.random() * live.length)];
    if (!node) {
      setTimeout(() => this.connect(), 100);
      return;
    }
    this.connects++;
    const socket = new WebSocket(`${node.url.replace("http", "ws")}/ws`, {
      headers: { cookie: this.cookie, "x-forwarded-for": this.address },
    });
    this.socket = socket;
    socket.on("message", (raw) => {
      if (this.socket === socket) this.receive(serverFrameSchema.parse(JSON.parse(raw.toString())));
    });
    socket.on("error", () => {});
    const catchUp = setInterval(() => {
      if (this.socket === socket && this.open && this.lastSeq !== null) this.resume(this.lastSeq);
    }, CATCH_UP_MS * jitter(0.75, 1.25));
    socket.on("close", () => {
      clearInterval(catchUp);
      if (this.socket !== socket) return;
      this.socket = null;
      this.open = false;
      setTimeout(() => this.connect(), jitter(20, 200));
    });
  }

  /** Cuts the connection without a closing handshake (a network drop); the client reconnects. */
  drop(): void {
    this.socket?.terminate();
  }

  stop(): void {
    this.stopped = true;
    this.socket?.terminate();
  }

  private resume(after: number): void {
    this.resumes++;
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: "resume", after }));
  }

  private receive(frame: ServerFrame): void {
    switch (frame.type) {
      case "hello":
        this.open = true;
        if (this.lastSeq !== null && frame.seq > this.lastSeq) this.resume(this.lastSeq);
        else if (this.lastSeq === null || frame.seq < this.lastSeq) this.lastSeq = frame.seq;
        return;
      case "event":
        if (frame.seq !== null) {
          if (this.lastSeq !== null && frame.seq <= this.lastSeq) {
            this.seenAgain++;
            return;
          }
          if (this.lastSeq !== null && frame.seq > this.lastSeq + 1) {
            // One went missing on the way: ask for it and the rest, in order.
            this.resume(this.lastSeq);
            return;
          }
          this.lastSeq = frame.seq;
        }
        this.handle(frame.event);
        return;
      case "resync":
        this.resyncs++;
        this.lastSeq = Math.max(this.lastSeq ?? 0, frame.seq);
        void this.reload();
        return;
      default:
        return;
    }
  }

  private handle(event: MemberEvent): void {
    if (event.type !== "chat.message") return;
    if (this.delivered.has(event.message.id)) this.doubled++;
    this.delivered.add(event.message.id);
    this.show(event.conversation_id, event.message);
  }

  /** What the web does on `resync`: the chat list, then each conversation, paged backwards. */
  async reload(): Promise<void> {
    this.reloading++;
    try {
      for (const [id, messages] of await this.history()) for (const message of messages) this.show(id, message);
    } finally {
      this.reloading--;
    }
  }

  /** Every conversation of the member with all its messages, over HTTP, oldest first. */
  async history(): Promise<Map<number, ChatMessage[]>> {
    const list = chatsResponseSchema.parse(await this.call("GET", "/api/chats.php"));
    const result = new Map<number, ChatMessage[]>();
    for (const { conversation } of list.chats) {
      const messages: ChatMessage[] = [];
      let before: number | undefined;
      for (;;) {
        const page = chatResponseSchema.parse(
          await this.call("GET", `/api/chat.php?id=${conversation.id}${before ? `&before=${before}` : ""}`),
        );
        messages.unshift(...page.messages);
        if (!page.has_more || !page.messages[0]) break;
        before = page.messages[0].id;
      }
      result.set(conversation.id, messages);
    }
    return result;
  }
}

let clients: ChatClient[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  const first = await startNode("A");
  nodes.push(first, await startNode("B"));
  await seed(first.app.services, { profiles: 0 });
  // Premium (no limit of two conversations) with credits for every message; in parallel batches.
  const made: ChatClient[] = [];
  for (let start = 0; start < MEMBERS; start += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, MEMBERS - start) }, (_, k) =>
        createMember(first.app, {
          activate: true,
          paid: true,
          credits: GRANT,
          gender: (start + k) % 2 ? "male" : "female",
          name: `Member ${start + k}`,
        }),
      ),
    );
    for (const [k, member] of batch.entries()) {
      const i = start + k;
      made.push(
        new ChatClient(i, member.userId, member.profileId, member.client.cookieHeader(), `10.77.${i >> 8}.${i & 255}`, i % 2),
      );
    }
  }
  clients = made;
}, 300_000);

afterAll(async () => {
  for (const client of clients) client.stop();
  for (const node of allNodes) {
    if (node.up) {
      node.up = false;
      await node.app.stop();
      if (usingPostgres) await node.database.close();
    } else await node.stopped;
  }
  await sharedBus?.close();
  await database?.destroy();
});

/** Each member's partners: neighbours on a ring, and every fourth member one across: 2 or 3 conversations each. */
function partnersOf(i: number): number[] {
  const n = clients.length;
  const partners = [(i + 1) % n, (i + n - 1) % n];
  const across = (i + n / 2) % n;
  if (i % 4 === 0 && across % 4 === 0) partners.push(across);
  return partners;
}

describe(`chat never loses a message (${MEMBERS} members, two nodes, ${usingPostgres ? "PostgreSQL" : "PGlite"} + ${usingRedis ? "Redis" : "in-process bus"})`, () => {
  it("shows every member exactly the database's messages, in order, after dropped sockets and a node killed and restarted", async () => {
    const started = Date.now();
    const { db } = database;
    const balances = async () =>
      new Map(
        (await sqlRows<{ user_id: number; balance: number }>(db, sql`select user_id, balance from credit_accounts`)).map(
          (r) => [Number(r.user_id), Number(r.balance)] as const,
        ),
      );
    const startBalances = await balances();

    // Everyone online first, half on each node.
    for (const client of clients) client.connect();
    expect(await until(() => clients.every((c) => c.open), 60_000)).toBe(true);

    const total = clients.length * MESSAGES_EACH;
    let acked = 0;
    const sending = Promise.all(
      clients.map(async (client) => {
        const partners = partnersOf(client.index).map((p) => clients[p] as ChatClient);
        for (let i = 0; i < MESSAGES_EACH; i++) {
          await sleep(jitter(0, 60));
          const to = partners[i % partners.length] as ChatClient;
          await client.send(to, `${client.index}→${to.index} #${i}`);
          acked++;
        }
      }),
    );

    // The trouble, paced by progress rather than by the clock: cut 5% of the open sockets six times
    // (half by the client, half by the server); kill node B at 30% and bring it back on its port at
    // 45%; kill node A at 90% and bring it back once the sends are done. The second kill loses some
    // members' last events (nothing later shows a gap): only asking again finds those.
    let dropped = 0;
    const dropRound = () => {
      const open = clients.filter((c) => c.open);
      const count = Math.max(1, Math.round(open.length * DROP_SHARE));
      for (let k = 0; k < count; k++) {
        const victim = open.splice(Math.floor(Math.random() * open.length), 1)[0];
        if (!victim) break;
        if (k % 2) victim.drop();
        else {
          const node = upNodes()[k % upNodes().length];
          const server = node ? [...node.app.server.websocketServer.clients] : [];
          const socket = server[Math.floor(Math.random() * server.length)];
          if (socket) socket.terminate();
          else victim.drop();
        }
        dropped++;
      }
    };
    const reached = (share: number) => until(() => acked >= total * share, 180_000, 20);
    const killed: Node[] = [];
    const killAndRestart = async (index: number, back: Promise<unknown>) => {
      const node = nodes[index] as Node;
      killed.push(node);
      kill(node);
      await Promise.all([back, sleep(500)]);
      await node.stopped;
      nodes[index] = await startNode(`${node.name} again`, node.port);
    };
    const trouble = (async () => {
      for (const share of [0.1, 0.2]) {
        await reached(share);
        dropRound();
      }
      await reached(0.3);
      await killAndRestart(1, reached(0.45));
      for (const share of [0.55, 0.7, 0.8]) {
        await reached(share);
        dropRound();
      }
      await reached(0.9);
      await killAndRestart(0, sending);
      dropRound();
    })();
    await Promise.all([sending, trouble]);
    expect(acked).toBe(total);

    // Quiet: every client connected and caught up with its member's latest event, no reload running.
    const latestSeqs = async () =>
      new Map(
        (await sqlRows<{ user_id: number; seq: number }>(db, sql`select user_id, seq from member_event_seqs`)).map(
          (r) => [Number(r.user_id), Number(r.seq)] as const,
        ),
      );
    let behind: ChatClient[] = [];
    await until(
      async () => {
        const latest = await latestSeqs();
        behind = clients.filter((c) => !c.open || c.reloading > 0 || c.lastSeq !== (latest.get(c.userId) ?? 0));
        return behind.length === 0;
      },
      60_000,
      250,
    );
    expect(
      behind.map((c) => ({ member: c.index, open: c.open, lastSeq: c.lastSeq, reloading: c.reloading })),
      "clients not caught up",
    ).toEqual([]);

    // The database: one row per acknowledged send (by client_id), the id the sender was told.
    const rows = await sqlRows<{ id: number; conversation_id: number; seq: number; client_id: string; text: string }>(
      db,
      sql`select id, conversation_id, seq, client_id, text from messages order by conversation_id, seq`,
    );
    const sent = clients.flatMap((c) => c.sent);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.client_id)).size).toBe(total);
    const byClientId = new Map(rows.map((r) => [r.client_id, r]));
    for (const s of sent) {
      expect(byClientId.get(s.clientId), s.clientId).toMatchObject({ id: s.id, conversation_id: s.conversationId });
    }

    // Server order: per conversation seq runs 1, 2, 3, … and ids grow with it.
    const byConversation = new Map<number, typeof rows>();
    for (const row of rows) {
      const list = byConversation.get(Number(row.conversation_id)) ?? [];
      list.push(row);
      byConversation.set(Number(row.conversation_id), list);
    }
    for (const list of byConversation.values()) {
      expect(list.map((r) => Number(r.seq))).toEqual(list.map((_, k) => k + 1));
      expect(list.map((r) => Number(r.id))).toEqual(list.map((r) => Number(r.id)).sort((a, b) => a - b));
    }

    // Each member's view (events, own acknowledged sends, reloads; one entry per id, shown by id) is
    // exactly the database's messages of their conversations, in order; no event showed one twice.
    const sides = await sqlRows<{ user_id: number; conversation_id: number }>(
      db,
      sql`select p.user_id, cm.conversation_id from conversation_members cm join profiles p on p.id = cm.profile_id`,
    );
    const conversationsOf = new Map<number, number[]>();
    for (const side of sides) {
      const list = conversationsOf.get(Number(side.user_id)) ?? [];
      list.push(Number(side.conversation_id));
      conversationsOf.set(Number(side.user_id), list);
    }
    const expected = (conversationId: number) =>
      (byConversation.get(conversationId) ?? []).map((r) => ({ id: Number(r.id), text: r.text }));
    for (const client of clients) {
      const mine = (conversationsOf.get(client.userId) ?? []).sort((a, b) => a - b);
      expect(
        [...client.view.keys()].sort((a, b) => a - b),
        `member ${client.index}'s conversations`,
      ).toEqual(mine);
      for (const id of mine) {
        const shown = [...(client.view.get(id)?.values() ?? [])]
          .sort((a, b) => a.id - b.id)
          .map((m) => ({ id: m.id, text: m.text }));
        expect(shown, `member ${client.index}, conversation ${id}`).toEqual(expected(id));
      }
      expect(client.doubled, `member ${client.index}: a message delivered twice past the seq check`).toBe(0);
    }

    // The same over HTTP, paged backwards, as a fresh page load would show it (one member per conversation).
    const checked = new Set<number>();
    await Promise.all(
      clients.map(async (client) => {
        for (const [id, messages] of await client.history()) {
          if (checked.has(id)) continue;
          checked.add(id);
          expect(messages.map((m) => ({ id: m.id, text: m.text }))).toEqual(expected(id));
        }
      }),
    );
    expect(checked.size).toBe(byConversation.size);

    // Every debit is a stored message and every message one debit; balances are the grant less them.
    const debits = await sqlRows<{ user_id: number; key: string; delta: number }>(
      db,
      sql`select user_id, key, delta from credit_ledger where reason = 'message'`,
    );
    expect(debits).toHaveLength(total);
    const senderOf = new Map(sent.map((s) => [`message:${s.clientId}`, s.senderUserId]));
    for (const debit of debits) {
      expect(senderOf.get(debit.key), debit.key).toBe(Number(debit.user_id));
      expect(Number(debit.delta)).toBe(-COST);
    }
    const after = await balances();
    for (const client of clients) {
      expect(client.sent).toHaveLength(MESSAGES_EACH);
      expect(after.get(client.userId)).toBe((startBalances.get(client.userId) ?? 0) - MESSAGES_EACH * COST);
    }

    const summary = {
      members: clients.length,
      messages: total,
      conversations: byConversation.size,
      dropped,
      lostPublishes: killed.map((n) => n.lost),
      connects: clients.reduce((n, c) => n + c.connects, 0),
      resumes: clients.reduce((n, c) => n + c.resumes, 0),
      resyncs: clients.reduce((n, c) => n + c.resyncs, 0),
      seenAgain: clients.reduce((n, c) => n + c.seenAgain, 0),
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
    console.log(`[chat loss] ${JSON.stringify(summary)}`);
    // Nobody was away long enough (RESUME_LIMIT events, a day) to need a reload: each resume replayed.
    expect(summary.resyncs).toBe(0);
  }, 300_000);

  it("brings a member a last message whose live delivery was lost, with nothing after it to show the gap", async () => {
    const [ann, ben] = clients as [ChatClient, ChatClient];
    expect(await until(() => ann.open && ben.open, 30_000)).toBe(true);
    // Every node drops its publishes for a moment, as a node dying between commit and publish would.
    const publishes = nodes.map((node) => node.app.services.bus.publish);
    let dropped = 0;
    for (const node of nodes)
      node.app.services.bus.publish = async () => {
        dropped++;
      };
    try {
      await ben.send(ann, "Still there?");
    } finally {
      for (const [k, node] of nodes.entries())
        node.app.services.bus.publish = publishes[k] as typeof node.app.services.bus.publish;
    }
    // Ann's copy and Ben's own: neither went out live.
    expect(dropped).toBeGreaterThanOrEqual(2);
    const message = ben.sent.at(-1) as Sent;
    // Ann's client asks for what came after its last seq (the web: with each ping) and gets it, once.
    expect(await until(() => ann.view.get(message.conversationId)?.has(message.id) === true, 30_000)).toBe(true);
    expect(ann.doubled).toBe(0);
  }, 60_000);
});
