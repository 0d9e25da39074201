import type { ServerFrame } from "@app/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeSocket } from "./fake-web-socket";
import { ServerEvents, SOCKET_SEND_TIMEOUT_MS } from "./server-events";

const hello = (seq: number): ServerFrame => ({ type: "hello", node: "n1", user_id: 7, seq });
const event = (seq: number | null, type: "badges.changed" | "user.changed" = "badges.changed"): ServerFrame => ({
  type: "event",
  seq,
  event: { type },
});

let client: ServerEvents;
const seen: Array<string> = [];

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.made = [];
  seen.length = 0;
  client = new ServerEvents({
    url: () => "ws://site.test/ws",
    WebSocket: FakeSocket as unknown as typeof WebSocket,
    random: () => 0.5,
    backoffMs: (attempt) => 1000 * 2 ** attempt,
  });
  client.on("badges.changed", () => seen.push("badges"));
  client.on("user.changed", () => seen.push("user"));
});

afterEach(() => {
  client.stop();
  vi.useRealTimers();
});

const socket = (n: number) => FakeSocket.made[n] as FakeSocket;

describe("ServerEvents", () => {
  it("delivers typed events to their handlers and reports the connection state", () => {
    client.start();
    expect(client.state).toBe("connecting");
    socket(0).open(hello(4));
    expect(client.state).toBe("open");
    socket(0).push(event(5));
    socket(0).push(event(6, "user.changed"));
    socket(0).push(event(null, "user.changed"));
    expect(seen).toEqual(["badges", "user", "user"]);
  });

  it("reconnects with growing, jittered delays and resumes after the last seq it saw, dropping doubles", () => {
    client.start();
    socket(0).open(hello(1));
    socket(0).push(event(2));
    socket(0).drop(1006);
    expect(client.state).toBe("closed");
    vi.advanceTimersByTime(749); // 1000 ms · (0.5 + 0.5 · 0.5)
    expect(FakeSocket.made).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.made).toHaveLength(2);
    socket(1).drop(1006);
    vi.advanceTimersByTime(1499); // 2000 ms · 0.75
    expect(FakeSocket.made).toHaveLength(2);
    vi.advanceTimersByTime(1);
    // Back: events 3 and 4 happened meanwhile.
    socket(2).open(hello(4));
    expect(socket(2).sent).toEqual([{ type: "resume", after: 2 }]);
    socket(2).push(event(2)); // seen before
    socket(2).push(event(3));
    socket(2).push(event(4));
    socket(2).push(event(4)); // live and replayed: once
    expect(seen).toEqual(["badges", "badges", "badges"]);
  });

  it("asks again when an event goes missing on the way, and reloads when the server no longer has it", () => {
    const resyncs: number[] = [];
    client.onResync(() => resyncs.push(1));
    client.start();
    socket(0).open(hello(10));
    socket(0).push(event(12));
    expect(seen).toEqual([]);
    expect(socket(0).sent).toEqual([{ type: "resume", after: 10 }]);
    socket(0).push({ type: "resync", seq: 12 });
    expect(resyncs).toEqual([1]);
    socket(0).push(event(13));
    expect(seen).toEqual(["badges"]);
  });

  it("never goes back to an older seq on a late resync, so events it has shown do not show again", () => {
    client.onResync(() => seen.push("resync"));
    client.start();
    socket(0).open(hello(10));
    socket(0).push(event(11));
    socket(0).push(event(12));
    socket(0).push({ type: "resync", seq: 11 }); // the answer to an earlier resume, late
    socket(0).push(event(12));
    socket(0).push(event(13));
    expect(seen).toEqual(["badges", "badges", "resync", "badges"]);
  });

  it("asks for what came after its last seq with each ping: a lost last event shows no gap", () => {
    client.start();
    socket(0).open(hello(4));
    socket(0).push(event(5));
    vi.advanceTimersByTime(25_000);
    expect(socket(0).sent).toEqual([{ type: "ping" }, { type: "resume", after: 5 }]);
    socket(0).push(event(6)); // the answer: the event whose live delivery was lost
    expect(seen).toEqual(["badges", "badges"]);
  });

  it("comes straight back after a node shuts down (1001, 1012) or a session ends elsewhere (4001)", () => {
    client.start();
    socket(0).open(hello(0));
    socket(0).drop(1006);
    vi.advanceTimersByTime(750);
    socket(1).open(hello(0));
    socket(1).drop(1001);
    vi.advanceTimersByTime(750);
    expect(FakeSocket.made).toHaveLength(3);
    // A node restarting (graceful shutdown, issue #25) closes with 1012, even before its hello: no
    // backoff either, though the last attempt had failed.
    socket(2).drop(1012);
    vi.advanceTimersByTime(750);
    expect(FakeSocket.made).toHaveLength(4);
  });

  it("closes a connection whose pong does not come, and stops for good on stop()", () => {
    client.start();
    socket(0).open(hello(0));
    vi.advanceTimersByTime(25_000);
    expect(socket(0).sent).toEqual([{ type: "ping" }, { type: "resume", after: 0 }]);
    vi.advanceTimersByTime(10_000);
    expect(socket(0).readyState).toBe(3);
    client.stop();
    expect(client.state).toBe("idle");
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.made).toHaveLength(1);
  });

  describe("messages over the socket", () => {
    const clientId = "4b8f2c3e-1d2a-4c5b-9e6f-7a8b9c0d1e2f";
    const body = { conversation_id: 5, client_id: clientId, text: "Hi" };
    const stored = {
      conversation_id: 5,
      credits: 30,
      message: {
        id: 12,
        conversation_id: 5,
        profile_id: 7,
        from_me: true,
        kind: "text" as const,
        text: "Hi",
        photo: null,
        gift: null,
        gif: null,
        created_at: "2026-11-25T10:00:00.000Z",
        client_id: clientId,
      },
    };
    const accepting: ServerFrame = { type: "hello", node: "n1", user_id: 7, seq: 0, accepts: ["ping", "resume", "send"] };

    it("sends only when the node says it takes messages, and resolves with its answer or its refusal", async () => {
      client.start();
      socket(0).open(hello(0));
      expect(client.sendMessage(body)).toBeNull(); // an older node: the caller uses HTTP
      socket(0).drop(1001);
      vi.advanceTimersByTime(1000);
      socket(1).open(accepting);
      const answered = client.sendMessage(body);
      expect(socket(1).sent).toContainEqual({ type: "send", message: body });
      socket(1).push({ type: "sent", answer: stored });
      await expect(answered).resolves.toEqual({ ok: true, answer: stored });

      const refused = client.sendMessage({ ...body, text: "Again" });
      socket(1).push({
        type: "send_failed",
        client_id: clientId,
        status: 402,
        body: { error: "not_enough_credits", message: "You do not have enough credits" },
      });
      await expect(refused).resolves.toEqual({
        ok: false,
        status: 402,
        body: { error: "not_enough_credits", message: "You do not have enough credits" },
      });
    });

    it("gives up on an answer when the socket closes or none comes in time (the caller then uses HTTP)", async () => {
      client.start();
      socket(0).open(accepting);
      const dropped = client.sendMessage(body);
      socket(0).drop(1006);
      await expect(dropped).rejects.toThrow();
      expect(client.sendMessage(body)).toBeNull(); // not open now
      vi.advanceTimersByTime(1000);
      socket(1).open(accepting);
      const silent = client.sendMessage(body);
      vi.advanceTimersByTime(SOCKET_SEND_TIMEOUT_MS);
      await expect(silent).rejects.toThrow();
    });
  });
});
