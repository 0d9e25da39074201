import { randomBytes } from "node:crypto";
import type { ServerFrame } from "@app/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { seed } from "../../seed/seed.ts";
import { createMember } from "../../test/factories.ts";
import { openTestBus, openTestDatabase, startTestApp, type TestApp, type TestDatabase, usingRedis } from "../../test/harness.ts";
import { t } from "../i18n.ts";
import { BROADCAST_CHANNEL } from "./ws.ts";

let database: TestDatabase;
let nodeA: TestApp;
let nodeB: TestApp;

beforeAll(async () => {
  database = await openTestDatabase();
  // Two server nodes over one database; with Redis they share a bus only through the Redis server.
  const prefix = `test:${randomBytes(6).toString("hex")}:`;
  nodeA = await startTestApp(database, { bus: await openTestBus(prefix) });
  nodeB = await startTestApp(database, { bus: usingRedis ? await openTestBus(prefix) : nodeA.services.bus });
});

afterAll(async () => {
  await nodeA?.stop();
  if (usingRedis) await nodeB?.stop();
  else await nodeB?.server.close();
  await database?.destroy();
});

/** Opens a socket and collects its frames. */
async function connect(app: TestApp, headers: Record<string, string> = {}) {
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

describe("WebSocket /ws", () => {
  it("greets with the node id and answers pings", async () => {
    const { socket, next } = await connect(nodeA);
    expect(await next((f) => f.type === "hello")).toEqual({ type: "hello", node: nodeA.ws.nodeId, user_id: null });
    socket.send(JSON.stringify({ type: "ping", id: "p1" }));
    expect(await next((f) => f.type === "pong")).toEqual({ type: "pong", id: "p1" });
    socket.close();
  });

  it("knows the member of a session cookie", async () => {
    await seed(nodeA.services, { profiles: 0 });
    const { client, userId: id } = await createMember(nodeA, { name: "Sam", gender: "male" });
    const { socket, next } = await connect(nodeA, { cookie: client.cookieHeader() });
    expect(await next((f) => f.type === "hello")).toMatchObject({ type: "hello", user_id: id });
    socket.close();
    const stranger = await connect(nodeA, { cookie: "auth.session=forged-token-value" });
    expect(await stranger.next((f) => f.type === "hello")).toMatchObject({ user_id: null });
    stranger.socket.close();
  });

  it("answers a bad frame with a translated error and stays open", async () => {
    const { socket, next } = await connect(nodeA, { cookie: "i18n_redirected=de" });
    socket.send("{not json");
    const error = await next((f) => f.type === "error");
    expect(error).toEqual({ type: "error", error: "bad_request", message: t("de", "error.bad_frame") });
    expect(t("de", "error.bad_frame")).not.toBe(t("en", "error.bad_frame"));
    socket.send(JSON.stringify({ type: "ping" }));
    expect(await next((f) => f.type === "pong")).toEqual({ type: "pong" });
    socket.close();
  });

  it("refuses a browser from another origin", async () => {
    await expect(connect(nodeA, { origin: "https://evil.example" })).rejects.toThrow("HTTP 403");
    const ok = await connect(nodeA, { origin: nodeA.url });
    ok.socket.close();
  });

  it(`fans an event published on one node out to sockets on the other (${usingRedis ? "Redis" : "shared in-process bus"})`, async () => {
    const onB = await connect(nodeB);
    await onB.next((f) => f.type === "hello");
    await nodeA.services.bus.publish(BROADCAST_CHANNEL, { topic: "site", payload: { hello: "from A" } });
    expect(await onB.next((f) => f.type === "event")).toEqual({ type: "event", topic: "site", payload: { hello: "from A" } });
    onB.socket.close();
  });

  it("closes sockets with 1001 on shutdown", async () => {
    const extra = await startTestApp(database);
    const { socket } = await connect(extra);
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    await extra.stop();
    expect(await closed).toBe(1001);
  });
});
