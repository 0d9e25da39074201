import type { FastifyInstance } from "fastify";
import type { Bus } from "../bus.ts";
import { RedisBus } from "../bus.ts";
import type { Database } from "../db/index.ts";

/** A dependency that does not answer within this counts as down (a load balancer probes every few seconds). */
const PROBE_TIMEOUT_MS = 2_000;

export type DependencyState = "up" | "down";

export interface Readiness {
  status: "ready" | "unavailable";
  database: DependencyState;
  /** "none": no Redis configured (one node, the in-process bus). */
  redis: DependencyState | "none";
}

async function probe(check: () => Promise<unknown>): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("probe timed out")), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return "up";
  } catch {
    return "down";
  } finally {
    clearTimeout(timer);
  }
}

/** Whether this node's dependencies answer now. */
export async function readiness(database: Pick<Database, "ping">, bus: Bus): Promise<Readiness> {
  const [db, redis] = await Promise.all([
    probe(() => database.ping()),
    bus instanceof RedisBus ? probe(() => bus.ping()) : Promise.resolve("none" as const),
  ]);
  return { status: db === "up" ? "ready" : "unavailable", database: db, redis };
}

/**
 * `GET /readyz` for a load balancer (issue #25); `/healthz` stays the liveness check. 503 while the
 * database does not answer: the node can serve nearly nothing, and another node may reach it. A Redis
 * outage answers 200 with `redis: "down"`: the node still serves every request (rate limits per node,
 * bus messages buffered), and as Redis is shared, every node would be taken out at once (decision 031).
 */
export function registerReadiness(app: FastifyInstance, dependencies: { database: Pick<Database, "ping">; bus: Bus }): void {
  app.get("/readyz", async (_request, reply) => {
    const state = await readiness(dependencies.database, dependencies.bus);
    return reply
      .status(state.status === "ready" ? 200 : 503)
      .header("cache-control", "no-store")
      .send(state);
  });
}
