import { createRequire } from "node:module";
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { Redis } from "ioredis";

type StoreArgs = Parameters<FastifyRateLimitStore["incr"]>;
type RouteOptions = Parameters<FastifyRateLimitStore["child"]>[0];

// The plugin's own stores (Redis: one Lua script per hit; local: an LRU of counters), used as they are.
const require = createRequire(import.meta.url);
const RedisStore = require("@fastify/rate-limit/store/RedisStore.js") as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => FastifyRateLimitStore;
const LocalStore = require("@fastify/rate-limit/store/LocalStore.js") as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => FastifyRateLimitStore;

/** What the store needs of the Redis connection: the client, and whether it is up now. */
export interface SharedCounters {
  readonly client: Redis;
  readonly available: boolean;
}

/**
 * A rate-limit store that counts in Redis (shared by all nodes) while Redis answers, and per node
 * while it is away (issue #25: a Redis outage must not turn rate-limited requests into 500s, nor
 * remove the limits). The bus logs the outage and its end (platform/bus.ts). A node's local counts
 * start from zero when the outage begins, so during it a client can make up to `max` requests per
 * window on each node.
 */
export function fallbackStore(redis: SharedCounters, nameSpace: string): FastifyRateLimitStoreCtor {
  class FallbackStore implements FastifyRateLimitStore {
    private readonly shared: FastifyRateLimitStore;
    private readonly local: FastifyRateLimitStore;

    constructor(
      options: { continueExceeding?: boolean; exponentialBackoff?: boolean },
      children?: { shared: FastifyRateLimitStore; local: FastifyRateLimitStore },
    ) {
      const continueExceeding = options.continueExceeding ?? false;
      const exponentialBackoff = options.exponentialBackoff ?? false;
      this.shared = children?.shared ?? new RedisStore(continueExceeding, exponentialBackoff, redis.client, nameSpace);
      this.local = children?.local ?? new LocalStore(continueExceeding, exponentialBackoff);
    }

    incr(key: StoreArgs[0], callback: StoreArgs[1], timeWindow: StoreArgs[2], max: StoreArgs[3]): void {
      if (!redis.available) {
        this.local.incr(key, callback, timeWindow, max);
        return;
      }
      this.shared.incr(
        key,
        (error, result) => {
          // A command that failed or timed out (Redis went away just now): counted here instead.
          if (error) this.local.incr(key, callback, timeWindow, max);
          else callback(null, result);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: RouteOptions): FastifyRateLimitStore {
      return new FallbackStore(routeOptions as { continueExceeding?: boolean; exponentialBackoff?: boolean }, {
        shared: this.shared.child(routeOptions),
        local: this.local.child(routeOptions),
      });
    }
  }
  return FallbackStore as unknown as FastifyRateLimitStoreCtor;
}
