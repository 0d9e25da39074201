import { EventEmitter } from "node:events";
import { Redis } from "ioredis";

export type BusHandler = (message: unknown) => void;

/** Calls a handler so that its failure is reported, never thrown into the bus or the publisher. */
function deliver(handler: BusHandler, message: unknown, onError: (error: unknown) => void): void {
  try {
    handler(message);
  } catch (error) {
    onError(error);
  }
}

/**
 * Publish/subscribe between the parts of the site and, with Redis, between server nodes. Messages are
 * JSON values; a subscriber on any node receives every message published on a channel after it
 * subscribed (at most once, no replay).
 */
export interface Bus {
  readonly kind: "memory" | "redis";
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  /**
   * Calls `listener` each time the bus is back after an outage (subscriptions renewed): messages
   * published elsewhere meanwhile may be lost, so their receivers ask for what they missed.
   */
  onRecovered?(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * The embedded default: one process. Delivery is asynchronous and goes through a JSON round trip, as
 * with Redis, so that code behaves the same on both.
 */
export class MemoryBus implements Bus {
  readonly kind = "memory";
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  async publish(channel: string, message: unknown): Promise<void> {
    const payload = JSON.stringify(message);
    setImmediate(() => this.emitter.emit(channel, payload));
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    const listener = (payload: string) => deliver(handler, JSON.parse(payload) as unknown, this.onError);
    this.emitter.on(channel, listener);
    return async () => void this.emitter.off(channel, listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** Reports of the Redis connection's state: once when it goes away, once when it is back. */
export interface BusLog {
  error(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
}

/** How many publishes a node keeps while Redis is away (issue #25: buffer, bounded); older ones are dropped. */
export const OUTAGE_BUFFER_LIMIT = 10_000;
/** A Redis command that has no answer within this fails (then the caller falls back) instead of waiting. */
const COMMAND_TIMEOUT_MS = 1_000;

/**
 * Redis pub/sub: one publishing and one subscribing connection per node; channels carry a prefix.
 *
 * A Redis outage degrades instead of failing (issue #25, decision 031): neither connection queues
 * commands while disconnected (`enableOfflineQueue: false`) and every command has a timeout, so
 * nothing waits on Redis. `publish` never throws: while Redis is away it delivers to this node's own
 * subscribers at once and keeps the message in a bounded buffer that is sent when Redis is back
 * (other nodes then get it late; this node's sockets get it twice and drop the copy by its `seq`).
 * Durable member events are in the database as well, so a socket that missed one finds it by
 * resuming. Subscriptions made during the outage are made when Redis is back. The outage is logged
 * once, and its end once.
 */
export class RedisBus implements Bus {
  readonly kind = "redis";
  private readonly handlers = new Map<string, Set<BusHandler>>();
  /** Publishes waiting for Redis, oldest first (channel with prefix, JSON payload). */
  private readonly buffer: Array<{ key: string; payload: string }> = [];
  private dropped = 0;
  private down = false;
  private flushing: Promise<void> | null = null;
  /** Whether the subscriptions were cut by an outage (the receiving side's down). */
  private subscriptionsCut = false;
  private readonly recoveredListeners: Array<() => void> = [];
  /** Retries the buffer while it holds messages (a timed-out publish leaves the connection "ready"). */
  private retry: NodeJS.Timeout | null = null;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void,
    private readonly log: BusLog,
  ) {
    sub.on("message", (channel: string, raw: string) => this.receive(channel, raw));
    // Errors repeat on every reconnection attempt: reported while Redis is up, not once per attempt.
    const reportError = (error: unknown) => {
      if (!this.down) this.onError(error);
    };
    pub.on("error", reportError);
    sub.on("error", reportError);
    pub.on("close", () => this.wentDown());
    sub.on("close", () => {
      this.subscriptionsCut = true;
      this.wentDown();
    });
    pub.on("ready", () => this.cameBack());
    sub.on("ready", () => this.cameBack());
  }

  static async connect(
    url: string,
    prefix: string,
    onError: (error: unknown) => void = () => {},
    log: BusLog = { error: () => {}, info: () => {} },
  ): Promise<RedisBus> {
    const options = {
      lazyConnect: true,
      // Fail at once while disconnected (the caller falls back) instead of queueing until Redis is
      // back: with the queue, a rate-limited POST waited for reconnection attempts and then answered
      // 500 (MaxRetriesPerRequestError), and a password reset hung for over 20 s (issue #25).
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      // Reconnect for ever (ioredis' default), at most every 2 s.
      retryStrategy: (times: number) => Math.min(times * 100, 2_000),
    };
    // Publishes of one event-loop turn (a burst of typing frames, a message's events) go to Redis in
    // one write instead of one each.
    const pub = new Redis(url, { ...options, enableAutoPipelining: true });
    const sub = new Redis(url, options);
    await Promise.all([pub.connect(), sub.connect()]);
    return new RedisBus(pub, sub, prefix, onError, log);
  }

  /** The publishing connection, for features that need plain Redis commands (rate-limit counters). */
  get client(): Redis {
    return this.pub;
  }

  /** Whether both connections are up (commands on `client` then reach Redis). */
  get available(): boolean {
    return this.pub.status === "ready" && this.sub.status === "ready";
  }

  async publish(channel: string, message: unknown): Promise<void> {
    const key = this.prefix + channel;
    const payload = JSON.stringify(message);
    if (this.available && this.buffer.length === 0) {
      try {
        await this.pub.publish(key, payload);
        return;
      } catch {
        this.wentDown();
      }
    }
    // Redis is away: this node's subscribers get it now (after this turn, as through Redis), the
    // other nodes when Redis is back.
    setImmediate(() => this.receive(key, payload));
    this.keep(key, payload);
    if (this.available) this.flush();
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    const key = this.prefix + channel;
    let handlers = this.handlers.get(key);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(key, handlers);
      // While Redis is away the subscription is made when it is back (cameBack).
      if (this.available) await this.sub.subscribe(key).catch(() => this.wentDown());
    }
    handlers.add(handler);
    return async () => {
      const set = this.handlers.get(key);
      if (!set?.delete(handler) || set.size > 0) return;
      this.handlers.delete(key);
      if (this.available) await this.sub.unsubscribe(key).catch(() => undefined);
    };
  }

  async ping(): Promise<void> {
    await this.pub.ping();
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.buffer.length = 0;
    if (this.retry) clearInterval(this.retry);
    this.down = false;
    this.pub.removeAllListeners("close");
    this.sub.removeAllListeners("close");
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
    // During an outage QUIT cannot be sent: stop the reconnection attempts too.
    this.sub.disconnect();
    this.pub.disconnect();
  }

  private receive(key: string, raw: string): void {
    const handlers = this.handlers.get(key);
    if (!handlers) return;
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch (error) {
      this.onError(error);
      return;
    }
    for (const handler of handlers) deliver(handler, message, this.onError);
  }

  private keep(key: string, payload: string): void {
    this.buffer.push({ key, payload });
    if (this.buffer.length > OUTAGE_BUFFER_LIMIT) {
      this.buffer.shift();
      this.dropped += 1;
      if (this.dropped === 1) {
        this.log.error({ limit: OUTAGE_BUFFER_LIMIT }, "Redis unreachable and the bus buffer full: dropping the oldest messages");
      }
    }
    this.retry ??= setInterval(() => {
      if (this.buffer.length === 0 && this.retry) {
        clearInterval(this.retry);
        this.retry = null;
      } else if (this.available) this.flush();
    }, 1_000).unref();
  }

  private wentDown(): void {
    if (this.down) return;
    this.down = true;
    this.log.error(
      { buffering: OUTAGE_BUFFER_LIMIT },
      "Redis unreachable: rate limits count per node, bus messages are kept for the other nodes until it is back",
    );
  }

  onRecovered(listener: () => void): void {
    this.recoveredListeners.push(listener);
  }

  private cameBack(): void {
    if (!this.available) return;
    if (this.subscriptionsCut) {
      this.subscriptionsCut = false;
      // Subscriptions made while Redis was away (ioredis renews only the ones it had made), then the
      // receivers are told: what other nodes published meanwhile never reached this one.
      const keys = [...this.handlers.keys()];
      const renewed = keys.length ? this.sub.subscribe(...keys) : Promise.resolve();
      renewed.then(
        () => {
          for (const listener of this.recoveredListeners) deliver(listener, undefined, this.onError);
        },
        () => this.wentDown(),
      );
    }
    // A moment for the other nodes to subscribe again before what was kept here goes out.
    setTimeout(() => this.flush(), 250).unref();
  }

  /** Sends the publishes kept during an outage, in order; logs the end of the outage once they are out. */
  private flush(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      while (this.buffer.length > 0 && this.available) {
        const batch = this.buffer.splice(0, 500);
        const results = await Promise.allSettled(batch.map((m) => this.pub.publish(m.key, m.payload)));
        const failed = results.findIndex((r) => r.status === "rejected");
        if (failed >= 0) {
          this.buffer.unshift(...batch.slice(failed));
          return;
        }
      }
      if (this.down && this.available && this.buffer.length === 0) {
        this.down = false;
        this.log.info({ dropped: this.dropped }, "Redis reachable again: rate limits and bus messages shared by all nodes");
        this.dropped = 0;
      }
    })().finally(() => {
      this.flushing = null;
    });
  }
}

export async function openBus(options: {
  url?: string | undefined;
  prefix: string;
  onError?: (error: unknown) => void;
  /** Where a Redis outage and its end are reported. */
  log?: BusLog;
}): Promise<Bus> {
  return options.url
    ? RedisBus.connect(options.url, options.prefix, options.onError, options.log)
    : new MemoryBus(options.onError);
}
