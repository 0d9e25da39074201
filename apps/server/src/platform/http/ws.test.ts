import { type ServerFrame, WS_CLOSE, WS_MAX_PER_ADDRESS } from "@app/contract";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type WebSocket from "ws";
import { seed } from "../../seed/seed.ts";
import { createMember, sqlRows } from "../../test/factories.ts";
import { startTestApp, type TestApp, type TestDatabase, usingRedis } from "../../test/harness.ts";
import { connectSocket, useTwoNodes } from "../../test/sockets.ts";
import { t } from "../i18n.ts";

let database: TestDatabase;
let nodeA: TestApp;
let nodeB: TestApp;

useTwoNodes({}, (nodes) => {
  ({ database, nodeA, nodeB } = nodes);
});

const connect = connectSocket;

/** A new member (signed up on node A) and the cookie header of their session. */
async function newMember() {
  const { userId, client } = await createMember(nodeA, { name: "Sam", gender: "male", dateOfBirth: "1990-01-01" });
  return { id: userId, client, cookie: client.cookieHeader() };
}

const events = (frames: ServerFrame[]) => frames.filter((f) => f.type === "event");

describe("WebSocket /ws", () => {
  beforeAll(async () => {
    await seed(nodeA.services, { profiles: 0 });
  });

  it("greets with the node id and answers pings", async () => {
    const { socket, next } = await connect(nodeA);
    expect(await next((f) => f.type === "hello")).toEqual({
      type: "hello",
      node: nodeA.ws.nodeId,
      user_id: null,
      seq: 0,
      accepts: expect.arrayContaining(["ping", "resume", "typing", "send"]),
    });
    socket.send(JSON.stringify({ type: "ping", id: "p1" }));
    expect(await next((f) => f.type === "pong")).toEqual({ type: "pong", id: "p1" });
    socket.close();
  });

  it("knows the member of a session cookie", async () => {
    const { id, cookie } = await newMember();
    const { socket, next } = await connect(nodeA, { cookie });
    expect(await next((f) => f.type === "hello")).toMatchObject({ type: "hello", user_id: id, seq: 0 });
    socket.close();
    const stranger = await connect(nodeA, { cookie: "auth.session=forged-token-value" });
    expect(await stranger.next((f) => f.type === "hello")).toMatchObject({ user_id: null });
    stranger.socket.close();
  });

  it("answers a bad frame with a translated error and stays open", async () => {
    const { socket, next, frames } = await connect(nodeA, { cookie: "i18n_redirected=de" });
    socket.send("{not json");
    const error = await next((f) => f.type === "error");
    expect(error).toEqual({ type: "error", error: "bad_request", message: t("de", "error.bad_frame") });
    expect(t("de", "error.bad_frame")).not.toBe(t("en", "error.bad_frame"));
    socket.send(JSON.stringify({ type: "resume", after: -1 }));
    socket.send(JSON.stringify({ type: "chat.nothing" }));
    socket.send(JSON.stringify({ type: "ping" }));
    expect(await next((f) => f.type === "pong")).toEqual({ type: "pong" });
    // The negative resume and the unknown type were refused as well, each with its own error.
    expect(frames.filter((f) => f.type === "error")).toHaveLength(3);
    socket.close();
  });

  it("refuses a browser from another origin", async () => {
    await expect(connect(nodeA, { origin: "https://evil.example" })).rejects.toThrow("HTTP 403");
    // The same host under another scheme is another origin (issue #25 hole 7): the site is http here.
    await expect(connect(nodeA, { origin: nodeA.url.replace("http:", "https:") })).rejects.toThrow("HTTP 403");
    const ok = await connect(nodeA, { origin: nodeA.url });
    ok.socket.close();
  });

  it(`delivers an event for member M published on one node to M's sockets on every node, and to nobody else (${usingRedis ? "Redis" : "shared in-process bus"})`, async () => {
    const m = await newMember();
    const other = await newMember();
    const mOnB = await connect(nodeB, { cookie: m.cookie });
    const mOnA = await connect(nodeA, { cookie: m.cookie });
    const otherOnB = await connect(nodeB, { cookie: other.cookie });
    const visitorOnB = await connect(nodeB);
    for (const c of [mOnB, mOnA, otherOnB, visitorOnB]) await c.next((f) => f.type === "hello");

    await nodeA.services.events.publish(m.id, { type: "badges.changed" });
    const expected = { type: "event", seq: 1, event: { type: "badges.changed" } };
    expect(await mOnB.next((f) => f.type === "event")).toEqual(expected);
    expect(await mOnA.next((f) => f.type === "event")).toEqual(expected);
    // A ping round trip after the event: had the others been sent it, it would have arrived first.
    for (const c of [otherOnB, visitorOnB]) {
      c.socket.send(JSON.stringify({ type: "ping", id: "after" }));
      await c.next((f) => f.type === "pong");
      expect(events(c.frames)).toEqual([]);
    }
    // Ephemeral events (typing) carry no sequence number and are not kept.
    await nodeB.services.events.publishEphemeral(m.id, { type: "user.changed" });
    expect(await mOnA.next((f) => f.type === "event" && f.seq === null)).toEqual({
      type: "event",
      seq: null,
      event: { type: "user.changed" },
    });
    expect(await nodeA.services.events.latest(m.id)).toBe(1);
    for (const c of [mOnB, mOnA, otherOnB, visitorOnB]) c.socket.close();
  });

  it("gives a reconnecting member what they missed after the last seq they saw, or tells them to reload", async () => {
    const m = await newMember();
    for (let i = 0; i < 3; i++) await nodeA.services.events.publish(m.id, { type: "user.changed" });
    const back = await connect(nodeB, { cookie: m.cookie });
    expect(await back.next((f) => f.type === "hello")).toMatchObject({ user_id: m.id, seq: 3 });
    back.socket.send(JSON.stringify({ type: "resume", after: 1 }));
    await back.next((f) => f.type === "event" && f.seq === 3);
    expect(events(back.frames).map((f) => f.seq)).toEqual([2, 3]);
    // Events older than the server keeps are gone: the client is told to reload instead.
    await database.db.execute(
      sql`update member_events set created_at = now() - interval '2 days' where user_id = ${m.id} and seq = 2`,
    );
    expect(await nodeA.services.events.prune()).toBeGreaterThanOrEqual(1);
    back.socket.send(JSON.stringify({ type: "resume", after: 1 }));
    expect(await back.next((f) => f.type === "resync")).toEqual({ type: "resync", seq: 3 });
    back.socket.send(JSON.stringify({ type: "resume", after: 3 }));
    back.socket.send(JSON.stringify({ type: "ping", id: "done" }));
    await back.next((f) => f.type === "pong");
    expect(events(back.frames)).toHaveLength(2);
    back.socket.close();
  });

  it("numbers a member's events without gaps or doubles when they are recorded at once", async () => {
    const m = await newMember();
    await Promise.all(Array.from({ length: 20 }, () => nodeA.services.events.publish(m.id, { type: "badges.changed" })));
    const stored = await sqlRows<{ seq: string | number }>(
      database.db,
      sql`select seq from member_events where user_id = ${m.id} order by seq`,
    );
    expect(stored.map((r) => Number(r.seq))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("closes a member's sockets on every node with 4001 when they log out", async () => {
    const m = await newMember();
    const onB = await connect(nodeB, { cookie: m.cookie });
    await onB.next((f) => f.type === "hello");
    const closed = new Promise<number>((resolve) => onB.socket.once("close", (code) => resolve(code)));
    expect((await m.client.post("/api/logout.php", {})).statusCode).toBe(200);
    expect(await closed).toBe(WS_CLOSE.sessionEnded);
  });

  it("caps the sockets one address holds on a node", async () => {
    const open: Awaited<ReturnType<typeof connect>>[] = [];
    for (let i = 0; i < WS_MAX_PER_ADDRESS; i++) open.push(await connect(nodeA));
    await expect(connect(nodeA)).rejects.toThrow("HTTP 429");
    const closed = new Promise<void>((resolve) => open[0]?.socket.once("close", () => resolve()));
    open[0]?.socket.close();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await connect(nodeA);
    for (const c of [...open.slice(1), again]) c.socket.close();
  });

  it("closes sockets with 1012 (service restart) on shutdown; the member reconnects to another node and resumes", async () => {
    const m = await newMember();
    const extra = await startTestApp(database);
    const first = await connect(extra, { cookie: m.cookie });
    await first.next((f) => f.type === "hello");
    const closed = new Promise<number>((resolve) => first.socket.once("close", (code) => resolve(code)));
    await extra.stop();
    expect(await closed).toBe(WS_CLOSE.serviceRestart);
    // While it was away, something happened; on the other node it asks for it.
    await nodeA.services.events.publish(m.id, { type: "badges.changed" });
    const second = await connect(nodeB, { cookie: m.cookie });
    const hello = await second.next((f) => f.type === "hello");
    expect(hello).toMatchObject({ seq: 1 });
    second.socket.send(JSON.stringify({ type: "resume", after: 0 }));
    expect(await second.next((f) => f.type === "event")).toEqual({ type: "event", seq: 1, event: { type: "badges.changed" } });
    second.socket.close();
  });

  describe("frame budget (issue #25 hole 6)", () => {
    /** Resolves with the close code, or null when the socket is still open after `ms`. */
    const closeOf = (socket: WebSocket, ms: number) =>
      new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), ms);
        socket.once("close", (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });

    it("answers a flood of 20,000 frames with translated errors and closes the socket with 1008; HTTP answers meanwhile and the resumes cost few queries", async () => {
      const m = await newMember();
      for (let i = 0; i < 3; i++) await nodeA.services.events.publish(m.id, { type: "badges.changed" });
      const flood = await connect(nodeA, { cookie: `${m.cookie}; i18n_redirected=fr` });
      await flood.next((f) => f.type === "hello");
      const since = vi.spyOn(nodeA.services.events, "since");
      try {
        const closed = closeOf(flood.socket, 20_000);
        for (let i = 0; i < 20_000; i++) {
          flood.socket.send(JSON.stringify(i % 2 === 0 ? { type: "resume", after: 0 } : { type: "ping" }));
        }
        // An HTTP request on the same node while the flood arrives: it is answered, and by then the
        // node has not run a query per resume frame.
        const response = await fetch(`${nodeA.url}/api/user.php`, { headers: { cookie: m.cookie } });
        expect(response.status).toBe(200);
        expect(since.mock.calls.length).toBeLessThan(20);
        expect(await closed).toBe(WS_CLOSE.policy);
        const errors = flood.frames.filter((f) => f.type === "error");
        expect(errors.length).toBeGreaterThan(0);
        expect(errors[0]).toEqual({ type: "error", error: "rate_limited", message: t("fr", "error.rate_limited") });
        // Within the burst only the first resume asked the database; its repeats waited on it and cost nothing.
        expect(flood.frames.filter((f) => f.type === "pong").length).toBeLessThanOrEqual(20);
        expect(since.mock.calls.length).toBe(1);
      } finally {
        since.mockRestore();
      }
    });

    it("drops the queued frames of a socket that closed", async () => {
      const m = await newMember();
      // A handler that takes its time (a slow database) keeps the next frames waiting in the queue.
      let started = 0;
      const typing = vi.spyOn(nodeA.services.chat, "typing").mockImplementation(async () => {
        started++;
        await new Promise((resolve) => setTimeout(resolve, 200));
        return true;
      });
      try {
        const c = await connect(nodeA, { cookie: m.cookie });
        await c.next((f) => f.type === "hello");
        for (let i = 0; i < 10; i++) c.socket.send(JSON.stringify({ type: "typing", conversation_id: 1, typing: true }));
        await vi.waitFor(() => expect(started).toBe(1));
        c.socket.terminate();
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(started).toBe(1);
      } finally {
        typing.mockRestore();
      }
    });

    it("leaves normal use alone: resumes after a reconnect, a burst of 20 frames, then one frame per 110 ms", async () => {
      const m = await newMember();
      await nodeA.services.events.publish(m.id, { type: "badges.changed" });
      const c = await connect(nodeA, { cookie: m.cookie });
      await c.next((f) => f.type === "hello");
      // A reconnecting client's resume, twice (its hello and its next ping), then a burst of frames.
      c.socket.send(JSON.stringify({ type: "resume", after: 0 }));
      c.socket.send(JSON.stringify({ type: "resume", after: 0 }));
      for (let i = 0; i < 18; i++) c.socket.send(JSON.stringify({ type: "ping", id: `burst${i}` }));
      await c.next((f) => f.type === "pong" && f.id === "burst17");
      for (let i = 0; i < 15; i++) {
        await new Promise((resolve) => setTimeout(resolve, 110));
        c.socket.send(JSON.stringify({ type: "ping", id: `steady${i}` }));
        await c.next((f) => f.type === "pong" && f.id === `steady${i}`);
      }
      expect(events(c.frames).map((f) => f.seq)).toEqual([1]);
      expect(c.frames.filter((f) => f.type === "error")).toEqual([]);
      expect(c.socket.readyState).toBe(c.socket.OPEN);
      c.socket.close();
    });
  });
});
