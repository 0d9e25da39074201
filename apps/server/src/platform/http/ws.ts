import { randomUUID } from "node:crypto";
import {
  type ClientFrame,
  type ClientFrameType,
  clientFrameSchema,
  clientIdSchema,
  InputRefusedError,
  inputProblem,
  type LocaleCode,
  parseJsonInput,
  type ServerFrame,
  WS_CLOSE,
  WS_MAX_PER_ADDRESS,
} from "@app/contract";
import websocket from "@fastify/websocket";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { WebSocket } from "ws";
import type { Bus } from "../bus.ts";
import { t } from "../i18n.ts";
import { type MemberEventMessage, MemberEvents } from "../member-events.ts";
import { clientNetwork } from "./client-address.ts";
import { sameOrigin } from "./csrf.ts";
import { errorAnswer } from "./errors.ts";
import { requestLocale } from "./request-locale.ts";

/** Bus channel announcing that a member's sessions ended: every node closes that member's sockets. */
export const SESSIONS_ENDED_CHANNEL = "ws:sessions-ended";

export interface WsHubOptions {
  bus: Bus;
  events: Pick<MemberEvents, "latest" | "since">;
  /** Origins allowed besides the request's own host (e.g. PUBLIC_URL). */
  allowedOrigins: readonly string[];
  heartbeatMs?: number;
  maxFrameBytes?: number;
  maxPerAddress?: number;
  /** Frame budget of one socket (issue #25 hole 6); defaults in FRAME_BUDGET. */
  frameBudget?: Partial<FrameBudget>;
  /** The member of the upgrade request (session cookie), or null for a visitor. */
  authenticate?: (request: FastifyRequest) => Promise<number | null>;
}

/**
 * How much one socket may ask of a node (issue #25 hole 6: 20,000 frames from one socket delayed every
 * HTTP answer on the node by seconds). A token bucket admits a burst of `burst` frames and `perSecond`
 * sustained, far above what the web client sends (a ping every 25 s, typing at most every 2 s, a resume
 * per reconnect, messages at typing speed). Admitted frames are handled one after the other, in order,
 * with at most `queue` waiting (more than a burst: it fills only when handlers are slow, a slow
 * database); a frame over the rate or the queue is answered with a translated `rate_limited` error and
 * not handled, and a socket that goes on (`refusals` refused frames without pausing until its bucket is
 * full again) is closed with 1008. See decision 033.
 */
export interface FrameBudget {
  burst: number;
  perSecond: number;
  queue: number;
  refusals: number;
}
export const FRAME_BUDGET: FrameBudget = { burst: 20, perSecond: 10, queue: 32, refusals: 20 };
/** A resume for nothing newer than the socket was told of is answered from memory this long after a look. */
const RESUME_RECHECK_MS = 5_000;

/** What a module's client frame handler gets: who sent it, in which language, and a way to answer. */
export interface ClientFrameContext<T extends ClientFrameType> {
  frame: Extract<ClientFrame, { type: T }>;
  userId: number | null;
  /** The socket's upgrade request (its cookies, host and language), for handlers that act as an API call. */
  request: FastifyRequest;
  locale: LocaleCode;
  send(frame: ServerFrame): void;
}

export type ClientFrameHandler<T extends ClientFrameType> = (context: ClientFrameContext<T>) => void | Promise<void>;

/**
 * What a member's sockets on this node tell of their presence (issue #28): a socket opened, a frame came
 * (its type: a ping is the client's timer, the others are the member's own doing), a socket closed
 * (`remaining`: the member's sockets still open on this node).
 */
export type PresenceSignal =
  | { kind: "connected"; userId: number }
  | { kind: "frame"; userId: number; frame: ClientFrameType }
  | { kind: "closed"; userId: number; remaining: number };

export interface WsHub {
  readonly nodeId: string;
  connectionCount(): number;
  /** Members with at least one socket on this node. */
  connectedMembers(): number;
  /**
   * Lets a module handle one type of client frame (chat typing, read receipts, ...). A frame whose
   * type no module handles is answered with a translated error.
   */
  onClientFrame<T extends ClientFrameType>(type: T, handler: ClientFrameHandler<T>): void;
  /** Lets a module follow members' sockets (presence); a listener must not throw. */
  onPresence(listener: (signal: PresenceSignal) => void): void;
  /**
   * Closes every socket with 1012 (service restart) so clients reconnect to another node; peers that do
   * not answer the closing handshake within `graceMs` are cut off.
   */
  closeAll(graceMs?: number): Promise<void>;
}

/**
 * The `/ws` endpoint: origin check and session before the upgrade, a cap of sockets per client
 * address, JSON frames validated by the contract and dispatched to the modules' handlers, a heartbeat
 * that drops dead peers, and delivery of member events: a node-local index member → sockets, with one
 * bus subscription per member connected here, so an event published on any node reaches every socket
 * of that member and no other.
 */
export async function registerWebSocket(app: FastifyInstance, options: WsHubOptions): Promise<WsHub> {
  const nodeId = randomUUID();
  const maxPayload = options.maxFrameBytes ?? 64 * 1024;
  const maxPerAddress = options.maxPerAddress ?? WS_MAX_PER_ADDRESS;
  const sockets = new Set<WebSocket>();
  const members = new WeakMap<FastifyRequest, number | null>();
  const socketMember = new WeakMap<WebSocket, number>();
  const byMember = new Map<number, Set<WebSocket>>();
  const subscriptions = new Map<number, Promise<() => Promise<void>>>();
  const perAddress = new Map<string, number>();
  const alive = new WeakSet<WebSocket>();
  const handlers = new Map<ClientFrameType, ClientFrameHandler<ClientFrameType>>();
  const presenceListeners: Array<(signal: PresenceSignal) => void> = [];
  const signal = (presence: PresenceSignal) => {
    for (const listener of presenceListeners) listener(presence);
  };
  const budget: FrameBudget = { ...FRAME_BUDGET, ...options.frameBudget };
  /** Each socket's budget and work, found by its socket and by its upgrade request (the handlers' key). */
  const states = new WeakMap<WebSocket | FastifyRequest, SocketState>();

  /** 1012 (service restart) to every socket; those that do not answer the closing handshake in time are cut off. */
  const closeAll = async (graceMs = 1000) => {
    const open = [...sockets];
    const closed = open.map((socket) => new Promise<void>((resolve) => socket.once("close", () => resolve())));
    for (const socket of open) socket.close(WS_CLOSE.serviceRestart, "server restarting");
    const timer = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.all(closed), timer]);
    for (const socket of sockets) socket.terminate();
  };

  // Shutdown (issue #25): Fastify answers new requests 503 from here on, then runs this before it stops
  // listening and waits for the requests in flight; the sockets are told to reconnect elsewhere (1012)
  // first, ahead of the plugin's own preClose, which would close them without a code.
  app.addHook("preClose", async () => {
    await closeAll();
  });
  await app.register(websocket, { options: { maxPayload } });

  const send = (socket: WebSocket, frame: ServerFrame) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const sendEvent = (userId: number, message: MemberEventMessage) => {
    const frame = JSON.stringify({ type: "event", seq: message.seq, event: message.event } satisfies ServerFrame);
    for (const socket of byMember.get(userId) ?? []) {
      if (socket.readyState !== socket.OPEN) continue;
      socket.send(frame);
      const state = states.get(socket);
      if (state && state.seen !== null && message.seq !== null) state.seen = Math.max(state.seen, message.seq);
    }
  };

  /** Adds a member's socket to the index; the first one subscribes to the member's channel. */
  const attach = (userId: number, socket: WebSocket): Promise<unknown> => {
    let set = byMember.get(userId);
    if (!set) {
      set = new Set();
      byMember.set(userId, set);
    }
    set.add(socket);
    let subscription = subscriptions.get(userId);
    if (!subscription) {
      subscription = options.bus.subscribe(MemberEvents.channel(userId), (message) =>
        sendEvent(userId, message as MemberEventMessage),
      );
      subscriptions.set(userId, subscription);
    }
    return subscription;
  };
  /** Removes a socket; the member's last one on this node ends the subscription. */
  const detach = (userId: number, socket: WebSocket) => {
    const set = byMember.get(userId);
    if (!set?.delete(socket) || set.size > 0) return;
    byMember.delete(userId);
    const subscription = subscriptions.get(userId);
    subscriptions.delete(userId);
    subscription?.then((unsubscribe) => unsubscribe()).catch((err: unknown) => app.log.error({ err }, "unsubscribing failed"));
  };

  const heartbeat = setInterval(() => {
    for (const socket of sockets) {
      if (!alive.has(socket)) {
        socket.terminate();
        continue;
      }
      alive.delete(socket);
      socket.ping();
    }
  }, options.heartbeatMs ?? 30_000);
  heartbeat.unref();

  // A logout, password reset or deletion elsewhere: the member's sockets close (4001) and the client
  // reconnects, authenticating again with whatever session it still has.
  const unsubscribeSessions = await options.bus.subscribe(SESSIONS_ENDED_CHANNEL, (message) => {
    const { user_id, reason } = message as { user_id: number; reason?: string };
    // A ban (issue #27) says so, and the page shows /pages/ban rather than reconnecting.
    const [code, text] = reason === "banned" ? [WS_CLOSE.banned, "banned"] : [WS_CLOSE.sessionEnded, "session ended"];
    for (const socket of byMember.get(user_id) ?? []) socket.close(code, text);
  });

  // The bus is back after an outage (issue #25): events published on other nodes meanwhile did not
  // reach this node's sockets. A new hello with the member's latest seq makes each client ask for what
  // it missed (as after a reconnect), instead of waiting for its next ping. Members one after another,
  // so that a node with many sockets does not send the database a query per member at once.
  options.bus.onRecovered?.(() => {
    void (async () => {
      for (const [userId, set] of [...byMember]) {
        const seq = await options.events.latest(userId).catch(() => null);
        if (seq === null) continue;
        const hello = { type: "hello", node: nodeId, user_id: userId, seq, accepts: [...handlers.keys()] } satisfies ServerFrame;
        for (const socket of set) send(socket, hello);
      }
    })();
  });

  // A client that was away asks for the events it missed.
  // Cheap to repeat (issue #25 hole 6): one already covered by a resume in progress or waiting is
  // dropped where it arrives (below), and one for nothing newer than this socket was told of costs no
  // query when the node looked less than RESUME_RECHECK_MS ago. Not for ever: the web client asks with
  // each ping (every 25 s) to find a last event whose live delivery was lost, which only a query finds.
  handlers.set("resume", async ({ frame, userId, request, send: answer }) => {
    if (userId === null || frame.type !== "resume") return;
    const state = states.get(request);
    if (state && state.seen !== null && frame.after >= state.seen && performance.now() - state.checkedAt < RESUME_RECHECK_MS) {
      return;
    }
    if (state) state.checkedAt = performance.now();
    const { events, complete, latest } = await options.events.since(userId, frame.after);
    if (state && state.seen !== null) state.seen = Math.max(state.seen, latest);
    if (!complete) {
      answer({ type: "resync", seq: latest });
      return;
    }
    for (const message of events) answer({ type: "event", seq: message.seq, event: message.event });
  });
  handlers.set("ping", ({ frame, send: answer }) => {
    if (frame.type === "ping") answer({ type: "pong", ...(frame.id === undefined ? {} : { id: frame.id }) });
  });

  app.addHook("onClose", async () => {
    clearInterval(heartbeat);
    await unsubscribeSessions();
    const pending = [...subscriptions.values()];
    subscriptions.clear();
    await Promise.allSettled(pending.map(async (subscription) => (await subscription)()));
  });

  /**
   * The answer to a frame the input rule refuses: a `send` with a usable `client_id` gets its own
   * `send_failed` (POST /api/message.php's 400), so the page settles that message at once; any other
   * frame the error frame.
   */
  const refusal = (frame: unknown, error: InputRefusedError, locale: LocaleCode): ServerFrame => {
    const { status, body } = errorAnswer(error, locale, app.log);
    const { type, message } = (frame ?? {}) as { type?: unknown; message?: { client_id?: unknown } };
    const clientId = clientIdSchema.safeParse(message?.client_id);
    if (type === "send" && clientId.success) return { type: "send_failed", client_id: clientId.data, status, body };
    return { type: "error", error: body.error, message: body.message };
  };

  const originAllowed = (request: FastifyRequest): boolean => {
    const origin = request.headers.origin;
    if (!origin) return true; // non-browser clients send no Origin; browsers always do
    // The whole origin, scheme included (issue #25 hole 7: `https://host` was accepted on an http site).
    return sameOrigin(origin, request) || options.allowedOrigins.includes(origin);
  };

  app.get(
    "/ws",
    {
      websocket: true,
      preValidation: async (request, reply) => {
        if (!originAllowed(request)) {
          return reply.status(403).send({ error: "forbidden", message: t(requestLocale(request), "error.forbidden") });
        }
        // A cap per client address (IPv6 /64), so one client cannot hold the node's memory in sockets.
        if ((perAddress.get(clientNetwork(request.ip)) ?? 0) >= maxPerAddress) {
          return reply.status(429).send({ error: "rate_limited", message: t(requestLocale(request), "error.rate_limited") });
        }
        // Authenticated before the upgrade (session cookie), so the handler below attaches its
        // listeners synchronously and loses no early frame.
        members.set(request, options.authenticate ? await options.authenticate(request).catch(() => null) : null);
      },
    },
    (socket, request) => {
      const locale = requestLocale(request);
      const userId = members.get(request) ?? null;
      const address = clientNetwork(request.ip);
      perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
      sockets.add(socket);
      alive.add(socket);
      socket.on("pong", () => alive.add(socket));
      socket.on("close", () => {
        sockets.delete(socket);
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left > 0) perAddress.set(address, left);
        else perAddress.delete(address);
        if (userId !== null) {
          detach(userId, socket);
          signal({ kind: "closed", userId, remaining: byMember.get(userId)?.size ?? 0 });
        }
      });
      const answer = (frame: ServerFrame) => send(socket, frame);
      const state = newSocketState(budget);
      states.set(socket, state);
      states.set(request, state);
      socket.on("close", () => {
        // Queued work of a closed socket is dropped; a handler already running finishes unheard.
        state.closed = true;
        state.queue.length = 0;
      });
      /** A frame over the budget: refused with an error, and the socket closed when it goes on. */
      const refuse = () => {
        state.refused++;
        if (state.refused <= budget.refusals) {
          answer({ type: "error", error: "rate_limited", message: t(locale, "error.rate_limited") });
          return;
        }
        state.closed = true;
        state.queue.length = 0;
        socket.close(WS_CLOSE.policy, "too many frames");
      };
      /** Runs the queued frames one after the other, in the order they came. */
      const drain = async () => {
        if (state.busy) return;
        state.busy = true;
        for (let job = state.queue.shift(); job && !state.closed; job = state.queue.shift()) await job.run();
        state.busy = false;
      };
      socket.on("message", (raw, isBinary) => {
        if (state.closed) return;
        // Counted before parsing, so that a flood costs the node as little as possible.
        if (!takeToken(state, budget)) return refuse();
        let frame: unknown;
        try {
          frame = isBinary ? undefined : parseJsonInput(raw.toString());
        } catch (error) {
          if (error instanceof InputRefusedError) {
            answer(refusal(undefined, error, locale));
            return;
          }
          frame = undefined;
        }
        // The input rule of every entry point (decision 032), before the contract's schema walks it.
        const problem = inputProblem(frame);
        if (problem) {
          answer(refusal(frame, new InputRefusedError(problem), locale));
          return;
        }
        const parsed = clientFrameSchema.safeParse(frame);
        const handler = parsed.success ? handlers.get(parsed.data.type) : undefined;
        if (!parsed.success || !handler) {
          answer({ type: "error", error: "bad_request", message: t(locale, "error.bad_frame") });
          return;
        }
        const data = parsed.data;
        if (userId !== null) signal({ kind: "frame", userId, frame: data.type });
        if (data.type === "resume" && resumeCovered(state, data.after)) return;
        if (state.queue.length >= budget.queue) return refuse();
        const job: QueuedFrame = {
          ...(data.type === "resume" ? { resumeAfter: data.after } : {}),
          run: async () => {
            state.running = job;
            try {
              await handler({ frame: data, userId, request, locale, send: answer });
            } catch (err) {
              app.log.error({ err }, "WebSocket frame handler failed");
              answer({ type: "error", error: "internal", message: t(locale, "error.internal") });
            } finally {
              state.running = null;
            }
          },
        };
        state.queue.push(job);
        void drain();
      });
      if (userId === null) {
        answer({ type: "hello", node: nodeId, user_id: null, seq: 0, accepts: [...handlers.keys()] });
        return;
      }
      socketMember.set(socket, userId);
      signal({ kind: "connected", userId });
      // Subscribed first, then the latest seq: an event between the two arrives live and is also
      // at or below `seq`; the client drops what it has seen.
      attach(userId, socket)
        .then(() => options.events.latest(userId))
        .then((seq) => {
          state.seen = Math.max(state.seen ?? 0, seq);
          state.checkedAt = performance.now();
          answer({ type: "hello", node: nodeId, user_id: userId, seq, accepts: [...handlers.keys()] });
        })
        .catch((err: unknown) => {
          app.log.error({ err }, "WebSocket member subscription failed");
          socket.close(WS_CLOSE.goingAway, "try again");
        });
    },
  );

  return {
    nodeId,
    connectionCount: () => sockets.size,
    connectedMembers: () => byMember.size,
    onClientFrame: (type, handler) => {
      if (handlers.has(type)) throw new Error(`frame ${type} has a handler already`);
      handlers.set(type, handler as unknown as ClientFrameHandler<ClientFrameType>);
    },
    onPresence: (listener) => {
      presenceListeners.push(listener);
    },
    closeAll,
  };
}

/** A frame admitted and waiting to be handled; a resume notes what it asks for, to drop repeats. */
interface QueuedFrame {
  resumeAfter?: number;
  run(): Promise<void>;
}

/** One socket's frame budget and work (issue #25 hole 6). */
interface SocketState {
  tokens: number;
  refilledAt: number;
  /** Frames refused since the bucket was last full. */
  refused: number;
  queue: QueuedFrame[];
  running: QueuedFrame | null;
  busy: boolean;
  closed: boolean;
  /** The highest event seq this socket has been told of (hello, events, resume), null before hello. */
  seen: number | null;
  /** When the node last read the member's latest seq for this socket (hello or resume). */
  checkedAt: number;
}

function newSocketState(budget: FrameBudget): SocketState {
  return {
    tokens: budget.burst,
    refilledAt: performance.now(),
    refused: 0,
    queue: [],
    running: null,
    busy: false,
    closed: false,
    seen: null,
    checkedAt: Number.NEGATIVE_INFINITY,
  };
}

/** Whether a resume in progress or waiting already asks for everything after `after`. */
function resumeCovered(state: SocketState, after: number): boolean {
  const asks = (job: QueuedFrame | null) => job?.resumeAfter !== undefined && job.resumeAfter <= after;
  return asks(state.running) || state.queue.some(asks);
}

/** Token bucket: refills at `perSecond` up to `burst`; a full bucket forgives earlier refusals. */
function takeToken(state: SocketState, budget: FrameBudget): boolean {
  const now = performance.now();
  state.tokens = Math.min(budget.burst, state.tokens + ((now - state.refilledAt) / 1000) * budget.perSecond);
  state.refilledAt = now;
  if (state.tokens >= budget.burst) state.refused = 0;
  if (state.tokens < 1) return false;
  state.tokens -= 1;
  return true;
}
