import { describe, expect, it } from "vitest";
import { openTestBus, usingRedis } from "../test/harness.ts";

/** Subscribes (waiting until the subscription is in place) and hands back the first message to come. */
async function nextMessage(
  subscribe: (handler: (m: unknown) => void) => Promise<unknown>,
): Promise<{ message: Promise<unknown> }> {
  let resolve: (m: unknown) => void = () => {};
  const message = new Promise<unknown>((r) => {
    resolve = r;
  });
  await subscribe((m) => resolve(m));
  return { message };
}

describe(`bus (${usingRedis ? "Redis" : "in-process"})`, () => {
  it("delivers a published message to every subscriber of the channel, and only that channel", async () => {
    const bus = await openTestBus();
    try {
      const received: unknown[] = [];
      const other: unknown[] = [];
      await bus.subscribe("chat", (m) => received.push(m));
      await bus.subscribe("likes", (m) => other.push(m));
      const second = await nextMessage((h) => bus.subscribe("chat", h));
      await bus.publish("chat", { text: "hi", n: 1 });
      expect(await second.message).toEqual({ text: "hi", n: 1 });
      await new Promise((r) => setTimeout(r, 50));
      expect(received).toEqual([{ text: "hi", n: 1 }]);
      expect(other).toEqual([]);
    } finally {
      await bus.close();
    }
  });

  it("stops delivering after unsubscribe", async () => {
    const bus = await openTestBus();
    try {
      const received: unknown[] = [];
      const unsubscribe = await bus.subscribe("c", (m) => received.push(m));
      await unsubscribe();
      const probe = await nextMessage((h) => bus.subscribe("c", h));
      await bus.publish("c", 1);
      await probe.message;
      expect(received).toEqual([]);
    } finally {
      await bus.close();
    }
  });

  it.runIf(usingRedis)("carries a message between two connections (two server nodes) with the same prefix only", async () => {
    const prefix = `test:${Date.now()}:`;
    const nodeA = await openTestBus(prefix);
    const nodeB = await openTestBus(prefix);
    const stranger = await openTestBus(`${prefix}other:`);
    try {
      const strangerGot: unknown[] = [];
      await stranger.subscribe("events", (m) => strangerGot.push(m));
      const arrived = await nextMessage((h) => nodeB.subscribe("events", h));
      await nodeA.publish("events", { from: "A" });
      expect(await arrived.message).toEqual({ from: "A" });
      await new Promise((r) => setTimeout(r, 50));
      expect(strangerGot).toEqual([]);
    } finally {
      await Promise.all([nodeA.close(), nodeB.close(), stranger.close()]);
    }
  });
});
