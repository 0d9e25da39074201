import { randomUUID } from "node:crypto";
import {
  type ClientFrame,
  type ClientFrameType,
  clientFrameSchema,
  type LocaleCode,
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
  /** The member of the upgrade request (session cookie), or null for a visitor. */
  authenticate?: (request: FastifyRequest) => Promise<number | null>;
}

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
  /**
   * Closes every socket with 1001 (going away) so clients reconnect to another node; peers that do not
   * answer the closing handshake within `graceMs` are cut off.
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

  await app.register(websocket, { options: { maxPayload } });

  const send = (socket: WebSocket, frame: ServerFrame) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const sendEvent = (userId: number, message: MemberEventMessage) => {
    const frame = JSON.stringify({ type: "event", seq: message.seq, event: message.event } satisfies ServerFrame);
    for (const socket of byMember.get(userId) ?? []) if (socket.readyState === socket.OPEN) socket.send(frame);
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
    const { user_id } = message as { user_id: number };
    for (const socket of byMember.get(user_id) ?? []) socket.close(WS_CLOSE.sessionEnded, "session ended");
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
  handlers.set("resume", async ({ frame, userId, send: answer }) => {
    if (userId === null || frame.type !== "resume") return;
    const { events, complete, latest } = await options.events.since(userId, frame.after);
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

  const originAllowed = (request: FastifyRequest): boolean => {
    const origin = request.headers.origin;
    if (!origin) return true; // non-browser clients send no Origin; browsers always do
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return false;
    }
    if (parsed.host === request.headers.host) return true;
    return options.allowedOrigins.includes(parsed.origin);
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
        if (userId !== null) detach(userId, socket);
      });
      const answer = (frame: ServerFrame) => send(socket, frame);
      socket.on("message", (raw, isBinary) => {
        let frame: unknown;
        try {
          frame = isBinary ? undefined : JSON.parse(raw.toString());
        } catch {
          frame = undefined;
        }
        const parsed = clientFrameSchema.safeParse(frame);
        const handler = parsed.success ? handlers.get(parsed.data.type) : undefined;
        if (!parsed.success || !handler) {
          answer({ type: "error", error: "bad_request", message: t(locale, "error.bad_frame") });
          return;
        }
        Promise.resolve(handler({ frame: parsed.data, userId, request, locale, send: answer })).catch((err: unknown) => {
          app.log.error({ err }, "WebSocket frame handler failed");
          answer({ type: "error", error: "internal", message: t(locale, "error.internal") });
        });
      });
      if (userId === null) {
        answer({ type: "hello", node: nodeId, user_id: null, seq: 0, accepts: [...handlers.keys()] });
        return;
      }
      socketMember.set(socket, userId);
      // Subscribed first, then the latest seq: an event between the two arrives live and is also
      // at or below `seq`; the client drops what it has seen.
      attach(userId, socket)
        .then(() => options.events.latest(userId))
        .then((seq) => answer({ type: "hello", node: nodeId, user_id: userId, seq, accepts: [...handlers.keys()] }))
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
    closeAll: async (graceMs = 1000) => {
      const open = [...sockets];
      const closed = open.map((socket) => new Promise<void>((resolve) => socket.once("close", () => resolve())));
      for (const socket of open) socket.close(WS_CLOSE.goingAway, "server shutting down");
      const timer = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.all(closed), timer]);
      for (const socket of sockets) socket.terminate();
    },
  };
}
