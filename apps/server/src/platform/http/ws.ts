import { randomUUID } from "node:crypto";
import { clientFrameSchema, type ServerFrame, WS_CLOSE } from "@app/contract";
import websocket from "@fastify/websocket";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { WebSocket } from "ws";
import type { Bus } from "../bus.ts";
import { t } from "../i18n.ts";
import { requestLocale } from "./request-locale.ts";

/** Bus channel whose messages every connected socket on every node receives. */
export const BROADCAST_CHANNEL = "ws:broadcast";
/** Bus channel announcing that a member's sessions ended: every node closes that member's sockets. */
export const SESSIONS_ENDED_CHANNEL = "ws:sessions-ended";

export interface WsHubOptions {
  bus: Bus;
  /** Origins allowed besides the request's own host (e.g. PUBLIC_URL). */
  allowedOrigins: readonly string[];
  heartbeatMs?: number;
  maxFrameBytes?: number;
  /** The member of the upgrade request (session cookie), or null for a visitor. */
  authenticate?: (request: FastifyRequest) => Promise<number | null>;
}

export interface WsHub {
  readonly nodeId: string;
  connectionCount(): number;
  /**
   * Closes every socket with 1001 (going away) so clients reconnect to another node; peers that do not
   * answer the closing handshake within `graceMs` are cut off.
   */
  closeAll(graceMs?: number): Promise<void>;
}

/**
 * The `/ws` endpoint: origin check, JSON frames validated by the contract, heartbeat that drops dead
 * peers, and fan-out of bus events to sockets (so an event published on any node reaches them).
 */
export async function registerWebSocket(app: FastifyInstance, options: WsHubOptions): Promise<WsHub> {
  const nodeId = randomUUID();
  const maxPayload = options.maxFrameBytes ?? 64 * 1024;
  const sockets = new Set<WebSocket>();
  const members = new WeakMap<FastifyRequest, number | null>();
  const socketMember = new WeakMap<WebSocket, number>();
  const alive = new WeakSet<WebSocket>();

  await app.register(websocket, { options: { maxPayload } });

  const send = (socket: WebSocket, frame: ServerFrame) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };

  const unsubscribe = await options.bus.subscribe(BROADCAST_CHANNEL, (message) => {
    const { topic, payload } = message as { topic: string; payload: unknown };
    const frame = JSON.stringify({ type: "event", topic, payload } satisfies ServerFrame);
    for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(frame);
  });

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
    for (const socket of sockets) if (socketMember.get(socket) === user_id) socket.close(4001, "session ended");
  });

  app.addHook("onClose", async () => {
    clearInterval(heartbeat);
    await unsubscribe();
    await unsubscribeSessions();
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
        // Authenticated before the upgrade (session cookie), so the handler below attaches its
        // listeners synchronously and loses no early frame.
        members.set(request, options.authenticate ? await options.authenticate(request).catch(() => null) : null);
      },
    },
    (socket, request) => {
      const locale = requestLocale(request);
      const userId = members.get(request) ?? null;
      if (userId !== null) socketMember.set(socket, userId);
      sockets.add(socket);
      alive.add(socket);
      socket.on("pong", () => alive.add(socket));
      socket.on("close", () => sockets.delete(socket));
      socket.on("message", (raw, isBinary) => {
        let frame: unknown;
        try {
          frame = isBinary ? undefined : JSON.parse(raw.toString());
        } catch {
          frame = undefined;
        }
        const parsed = clientFrameSchema.safeParse(frame);
        if (!parsed.success) {
          send(socket, { type: "error", error: "bad_request", message: t(locale, "error.bad_frame") });
          return;
        }
        if (parsed.data.type === "ping") send(socket, { type: "pong", id: parsed.data.id });
      });
      send(socket, { type: "hello", node: nodeId, user_id: userId });
    },
  );

  return {
    nodeId,
    connectionCount: () => sockets.size,
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
