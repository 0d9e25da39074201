import { randomBytes } from "node:crypto";
import type { ServerFrame } from "@app/contract";
import { afterAll, beforeAll } from "vitest";
import WebSocket from "ws";
import { seed } from "../seed/seed.ts";
import { openTestBus, openTestDatabase, startTestApp, type TestApp, type TestDatabase, usingRedis } from "./harness.ts";

/** A WebSocket to a test node's `/ws`, collecting its frames; `next` waits for the first frame that matches. */
export async function connectSocket(app: TestApp, headers: Record<string, string> = {}) {
  const socket = new WebSocket(`${app.url.replace("http", "ws")}/ws`, { headers });
  const frames: ServerFrame[] = [];
  const waiters: Array<() => void> = [];
  socket.on("message", (raw) => {
    frames.push(JSON.parse(raw.toString()) as ServerFrame);
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
    socket.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  const next = async (predicate: (f: ServerFrame) => boolean): Promise<ServerFrame> => {
    for (;;) {
      const found = frames.find(predicate);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { socket, frames, next };
}

/**
 * Two server nodes over one test database. With Redis (CI's second run) each has its own bus connection,
 * so events cross between them only through Redis; without it they share the in-process bus.
 */
export interface TwoNodes {
  database: TestDatabase;
  nodeA: TestApp;
  nodeB: TestApp;
  close(): Promise<void>;
}

export async function openTwoNodes(): Promise<TwoNodes> {
  const database = await openTestDatabase();
  const prefix = `test:${randomBytes(6).toString("hex")}:`;
  const nodeA = await startTestApp(database, { bus: await openTestBus(prefix) });
  const nodeB = await startTestApp(database, { bus: usingRedis ? await openTestBus(prefix) : nodeA.services.bus });
  return {
    database,
    nodeA,
    nodeB,
    close: async () => {
      await nodeA.stop();
      // Without Redis node B shares node A's bus, which node A's stop closed already.
      if (usingRedis) await nodeB.stop();
      else await nodeB.server.close();
      await database.destroy();
    },
  };
}

/**
 * Two nodes for the enclosing file or describe, as `useTestApp` gives one app: opened (and seeded through
 * node A when asked) in a beforeAll that then hands them to `ready`, closed in an afterAll.
 */
export function useTwoNodes(
  options: { seed?: { profiles: number }; timeout?: number } = {},
  ready?: (nodes: TwoNodes) => unknown,
): void {
  let nodes: TwoNodes | undefined;
  beforeAll(async () => {
    nodes = await openTwoNodes();
    if (options.seed) await seed(nodes.nodeA.services, options.seed);
    await ready?.(nodes);
  }, options.timeout);
  afterAll(async () => {
    await nodes?.close();
  });
}

/** A frame predicate: a member event of `type`. */
export const isEvent =
  <T extends string>(type: T) =>
  (frame: ServerFrame) =>
    frame.type === "event" && frame.event.type === type;
