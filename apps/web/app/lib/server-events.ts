import {
  type ApiError,
  type ClientFrame,
  type MemberEvent,
  type MemberEventOf,
  type MemberEventType,
  type MessageRequest,
  type MessageResponse,
  type ServerFrame,
  type serverFrameSchema,
  WS_CLOSE,
} from "@app/contract";
import { createContext, useCallback, useContext, useEffect, useRef, useSyncExternalStore } from "react";
import { checkFirstFrame } from "./first-frames";
import { reportBanned } from "./session-lost";

/** `open`: events arrive live; anything else: the spec's polling keeps the page fresh. */
export type ConnectionState = "idle" | "connecting" | "open" | "closed";

type Handler = (event: MemberEvent) => void;

export interface ServerEventsOptions {
  /** The socket's URL; by default /ws on the page's own origin. */
  url?: () => string;
  WebSocket?: typeof WebSocket;
  random?: () => number;
  /** Reconnect delay before attempt n (0-based), before jitter. */
  backoffMs?: (attempt: number) => number;
  /** How often the client checks the connection with a ping, and how long it waits for the pong. */
  pingEveryMs?: number;
  pongTimeoutMs?: number;
}

let frameSchema: typeof serverFrameSchema | null = null;

/** The server's word on a message sent over the socket: stored (or stored before), or refused as HTTP would. */
export type SocketSendResult = { ok: true; answer: MessageResponse } | { ok: false; status: number; body: ApiError };

/** How long a message sent over the socket waits for its answer before the caller tries HTTP instead. */
export const SOCKET_SEND_TIMEOUT_MS = 8_000;

interface PendingSend {
  resolve(result: SocketSendResult): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Loads the frame schema (and zod with it) when the first frame that needs it arrives (an event, a
 * sent message's answer): a connection's hello and pongs are checked by hand (first-frames.ts), so a
 * member's first screen does without zod (issue #29; decision 025 for visitors). Resolves once
 * loaded; the unit tests' setup awaits it beforehand.
 */
export async function loadServerFrames(): Promise<void> {
  frameSchema ??= (await import("./server-frames")).serverFrameSchema;
}

/** Close codes after which the client reconnects without backing off: the server asked it to (1012 on a restart). */
const RECONNECT_SOON = new Set<number>([WS_CLOSE.sessionEnded, WS_CLOSE.goingAway, WS_CLOSE.serviceRestart]);

const defaultUrl = () => `${window.location.protocol === "https:" ? "wss:" : "ws:"}//${window.location.host}/ws`;

/**
 * The member's live connection to `/ws`: typed events (`on(type, handler)`), reconnection with
 * exponential backoff and jitter (so that a restarted node is not hit by every client at once), and
 * no event lost or doubled across reconnects: the client remembers the last `seq` it saw, asks for what
 * came after it when it comes back (`resume`), drops what it has already seen, and tells `onResync`
 * listeners to reload when the server no longer has the missing events.
 */
export class ServerEvents {
  private socket: WebSocket | null = null;
  private wanted = false;
  private attempt = 0;
  private lastSeq: number | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pongTimer: ReturnType<typeof setTimeout> | undefined;
  private currentState: ConnectionState = "idle";
  private readonly handlers = new Map<MemberEventType, Set<Handler>>();
  private readonly resyncListeners = new Set<() => void>();
  private readonly stateListeners = new Set<() => void>();
  /** Client frame types the connected node handles (its hello). */
  private accepts: readonly string[] = [];
  /** Messages sent over the socket waiting for their answer, by client_id. */
  private readonly pendingSends = new Map<string, PendingSend>();
  /** Frames received and not handled yet, in order: they wait while the frame schema loads. */
  private inbox: string[] = [];
  private loadingSchema = false;
  private readonly options: Required<ServerEventsOptions>;

  constructor(options: ServerEventsOptions = {}) {
    this.options = {
      url: options.url ?? defaultUrl,
      WebSocket: options.WebSocket ?? globalThis.WebSocket,
      random: options.random ?? Math.random,
      backoffMs: options.backoffMs ?? ((attempt) => Math.min(30_000, 500 * 2 ** attempt)),
      pingEveryMs: options.pingEveryMs ?? 25_000,
      pongTimeoutMs: options.pongTimeoutMs ?? 10_000,
    };
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  /** Connects (when logged in); stays connected, reconnecting, until `stop`. */
  start(): void {
    if (this.wanted) return;
    this.wanted = true;
    this.connect();
  }

  /** Disconnects for good (logout) and forgets the sequence: the next member starts afresh. */
  stop(): void {
    this.wanted = false;
    this.lastSeq = null;
    clearTimeout(this.reconnectTimer);
    this.closeSocket();
    this.setState("idle");
  }

  on<T extends MemberEventType>(type: T, handler: (event: MemberEventOf<T>) => void): () => void {
    let set = this.handlers.get(type);
    if (!set) {
      set = new Set();
      this.handlers.set(type, set);
    }
    const wrapped = handler as Handler;
    set.add(wrapped);
    return () => void set.delete(wrapped);
  }

  /** Called when events were missed for good (the server no longer has them): reload what is shown. */
  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => void this.resyncListeners.delete(listener);
  }

  subscribeState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => void this.stateListeners.delete(listener);
  };

  private setState(next: ConnectionState): void {
    if (next === this.currentState) return;
    this.currentState = next;
    for (const listener of [...this.stateListeners]) listener();
  }

  private connect(): void {
    if (!this.wanted || !this.options.WebSocket) return;
    this.setState("connecting");
    let socket: WebSocket;
    try {
      socket = new this.options.WebSocket(this.options.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onmessage = (message) => {
      if (this.socket === socket) this.receive(String(message.data));
    };
    socket.onclose = (close) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.accepts = [];
      this.inbox = [];
      this.failPendingSends();
      this.stopPinging();
      if (!this.wanted) return;
      this.setState("closed");
      // A ban (issue #27): no reconnecting; the page goes to /pages/ban.
      if (close.code === WS_CLOSE.banned) {
        this.wanted = false;
        reportBanned();
        return;
      }
      // A session ended elsewhere or the node going away or restarting: come back soon; otherwise back off.
      if (RECONNECT_SOON.has(close.code)) this.attempt = 0;
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    clearTimeout(this.reconnectTimer);
    const base = this.options.backoffMs(this.attempt++);
    // Full jitter on the upper half: between half and all of the delay.
    const delay = base / 2 + (this.options.random() * base) / 2;
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private send(frame: ClientFrame): boolean {
    if (this.socket?.readyState !== 1) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /**
   * Sends a frame of a module's own (the chat's `typing`) when connected; false when not. Nothing is
   * queued: such frames are ephemeral, and a stale one sent after a reconnect would mislead.
   */
  sendFrame(frame: Exclude<ClientFrame, { type: "ping" | "resume" | "send" }>): boolean {
    return this.send(frame);
  }

  /**
   * Sends a chat message over the open socket (the `send` frame), when the node takes them: resolves
   * with the server's answer or refusal; rejects when no answer came (the socket closed, or none within
   * SOCKET_SEND_TIMEOUT_MS): the caller then tries HTTP with the same client_id, which the server stores
   * and charges once. Null when the socket cannot take it now (closed, or an older node).
   */
  sendMessage(message: MessageRequest): Promise<SocketSendResult> | null {
    if (this.currentState !== "open" || !this.accepts.includes("send")) return null;
    const clientId = message.client_id;
    if (this.pendingSends.has(clientId)) return null;
    if (!this.send({ type: "send", message: message as Extract<ClientFrame, { type: "send" }>["message"] })) return null;
    return new Promise<SocketSendResult>((resolve, reject) => {
      const timer = setTimeout(() => this.settleSend(clientId, new Error("no answer on the socket")), SOCKET_SEND_TIMEOUT_MS);
      this.pendingSends.set(clientId, { resolve, reject, timer });
    });
  }

  private settleSend(clientId: string, outcome: SocketSendResult | Error): void {
    const pending = this.pendingSends.get(clientId);
    if (!pending) return;
    this.pendingSends.delete(clientId);
    clearTimeout(pending.timer);
    if (outcome instanceof Error) pending.reject(outcome);
    else pending.resolve(outcome);
  }

  /** The socket went: what waited for an answer there goes by HTTP instead. */
  private failPendingSends(): void {
    for (const clientId of [...this.pendingSends.keys()]) this.settleSend(clientId, new Error("the socket closed"));
  }

  private receive(data: string): void {
    this.inbox.push(data);
    this.drain();
  }

  /** Handles the received frames in order; one the hand check leaves to the schema waits until it loaded. */
  private drain(): void {
    while (this.inbox.length > 0 && !this.loadingSchema) {
      let raw: unknown;
      try {
        raw = JSON.parse(this.inbox[0] as string);
      } catch {
        this.inbox.shift();
        continue;
      }
      let parsed: ServerFrame | null | undefined = checkFirstFrame(raw);
      if (parsed === undefined && !frameSchema) {
        this.loadingSchema = true;
        loadServerFrames().then(
          () => {
            this.loadingSchema = false;
            this.drain();
          },
          () => {
            // The schema did not load (a failed chunk): start over on a new connection, which asks
            // again for what came after the last `seq` handled.
            this.loadingSchema = false;
            this.inbox = [];
            this.socket?.close();
          },
        );
        return;
      }
      this.inbox.shift();
      if (parsed === undefined && frameSchema) {
        const result = frameSchema.safeParse(raw);
        parsed = result.success ? result.data : null;
      }
      // Null: a frame from a newer server this page does not know.
      if (parsed) this.handle(parsed);
    }
  }

  private handle(parsed: ServerFrame): void {
    switch (parsed.type) {
      case "hello":
        this.attempt = 0;
        this.accepts = parsed.accepts ?? [];
        this.setState("open");
        this.startPinging();
        if (this.lastSeq !== null && parsed.seq > this.lastSeq) this.send({ type: "resume", after: this.lastSeq });
        else if (this.lastSeq === null || parsed.seq < this.lastSeq) this.lastSeq = parsed.seq;
        return;
      case "event":
        if (parsed.seq !== null) {
          if (this.lastSeq !== null && parsed.seq <= this.lastSeq) return; // seen already
          if (this.lastSeq !== null && parsed.seq > this.lastSeq + 1) {
            // One went missing on the way (a lost bus message): ask for it and the rest, in order.
            this.send({ type: "resume", after: this.lastSeq });
            return;
          }
          this.lastSeq = parsed.seq;
        }
        for (const handler of [...(this.handlers.get(parsed.event.type) ?? [])]) handler(parsed.event);
        return;
      case "resync":
        // The answer to an earlier resume can come after newer events: going back would show them again.
        this.lastSeq = Math.max(this.lastSeq ?? 0, parsed.seq);
        for (const listener of [...this.resyncListeners]) listener();
        return;
      case "pong":
        clearTimeout(this.pongTimer);
        return;
      case "sent":
        if (parsed.answer.message.client_id)
          this.settleSend(parsed.answer.message.client_id, { ok: true, answer: parsed.answer });
        return;
      case "send_failed":
        this.settleSend(parsed.client_id, { ok: false, status: parsed.status, body: parsed.body });
        return;
      default:
        return;
    }
  }

  /**
   * A connection that died without a close (sleep, network change) is found by a ping without pong.
   * Each ping also asks for anything after the last `seq`: an event whose publish was lost (a node
   * that died between commit and publish) shows no gap until a later one comes; this finds it anyway.
   */
  private startPinging(): void {
    this.stopPinging();
    this.pingTimer = setInterval(() => {
      this.send({ type: "ping" });
      if (this.lastSeq !== null) this.send({ type: "resume", after: this.lastSeq });
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => this.socket?.close(), this.options.pongTimeoutMs);
    }, this.options.pingEveryMs);
  }

  private stopPinging(): void {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  private closeSocket(): void {
    const socket = this.socket;
    this.socket = null;
    this.accepts = [];
    this.inbox = [];
    this.failPendingSends();
    this.stopPinging();
    socket?.close();
  }
}

/** The page's one connection (provided by the member provider; an idle one outside it). */
export const ServerEventsContext = createContext<ServerEvents | null>(null);

/** Runs `handler` for every event of `type` for the logged-in member (the latest handler is used). */
export function useServerEvent<T extends MemberEventType>(type: T, handler: (event: MemberEventOf<T>) => void): void {
  const events = useContext(ServerEventsContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => events?.on(type, (event) => latest.current(event)), [events, type]);
}

/** Runs `handler` when missed events could not be replayed: reload what the page shows. */
export function useServerResync(handler: () => void): void {
  const events = useContext(ServerEventsContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => events?.onResync(() => latest.current()), [events]);
}

/** Sends a client frame of a module's own on the page's connection (see ServerEvents.sendFrame). */
export function useSendFrame(): (frame: Exclude<ClientFrame, { type: "ping" | "resume" | "send" }>) => boolean {
  const events = useContext(ServerEventsContext);
  return useCallback((frame) => events?.sendFrame(frame) ?? false, [events]);
}

/** Whether events arrive live (`open`); the member provider polls when they do not. */
export function useServerEventsState(): ConnectionState {
  const events = useContext(ServerEventsContext);
  return useSyncExternalStore(
    events?.subscribeState ?? (() => () => {}),
    () => events?.state ?? "idle",
    () => "idle",
  );
}
