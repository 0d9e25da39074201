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

/** Redis pub/sub: one publishing and one subscribing connection per node; channels carry a prefix. */
export class RedisBus implements Bus {
  readonly kind = "redis";
  private readonly handlers = new Map<string, Set<BusHandler>>();

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly prefix: string,
    onError: (error: unknown) => void,
  ) {
    sub.on("message", (channel: string, raw: string) => {
      const handlers = this.handlers.get(channel);
      if (!handlers) return;
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch (error) {
        onError(error);
        return;
      }
      for (const handler of handlers) deliver(handler, message, onError);
    });
    pub.on("error", onError);
    sub.on("error", onError);
  }

  static async connect(url: string, prefix: string, onError: (error: unknown) => void = () => {}): Promise<RedisBus> {
    const options = { lazyConnect: true, maxRetriesPerRequest: 3 };
    // Publishes of one event-loop turn (a burst of typing frames, a message's events) go to Redis in
    // one write instead of one each.
    const pub = new Redis(url, { ...options, enableAutoPipelining: true });
    const sub = new Redis(url, options);
    await Promise.all([pub.connect(), sub.connect()]);
    return new RedisBus(pub, sub, prefix, onError);
  }

  /** The publishing connection, for features that need plain Redis commands (rate-limit counters). */
  get client(): Redis {
    return this.pub;
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.pub.publish(this.prefix + channel, JSON.stringify(message));
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    const key = this.prefix + channel;
    let handlers = this.handlers.get(key);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(key, handlers);
      await this.sub.subscribe(key);
    }
    handlers.add(handler);
    return async () => {
      const set = this.handlers.get(key);
      if (!set?.delete(handler) || set.size > 0) return;
      this.handlers.delete(key);
      await this.sub.unsubscribe(key);
    };
  }

  async ping(): Promise<void> {
    await this.pub.ping();
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }
}

export async function openBus(options: {
  url?: string | undefined;
  prefix: string;
  onError?: (error: unknown) => void;
}): Promise<Bus> {
  return options.url ? RedisBus.connect(options.url, options.prefix, options.onError) : new MemoryBus(options.onError);
}
