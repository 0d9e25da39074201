import { describe, expect, it } from "vitest";
import { createMember } from "../../test/factories.ts";
import type { TestApp } from "../../test/harness.ts";
import { connectSocket, isEvent, useTwoNodes } from "../../test/sockets.ts";

let nodeA: TestApp;
let nodeB: TestApp;

useTwoNodes({ seed: { profiles: 0 }, timeout: 120_000 }, (nodes) => {
  ({ nodeA, nodeB } = nodes);
});

describe("likes live across two server nodes", () => {
  it("delivers like.received and like.match to the other member's socket on the other node", async () => {
    const ann = await createMember(nodeA, { activate: true, gender: "female", name: "Ann" });
    const ben = await createMember(nodeA, { activate: true, gender: "male", name: "Ben" });
    // Ann's tab is on node A, Ben's on node B; every call goes to the node the member's tab is on.
    const annSocket = await connectSocket(nodeA, { cookie: ann.client.cookieHeader() });
    const benSocket = await connectSocket(nodeB, { cookie: ben.client.cookieHeader() });
    await Promise.all([annSocket.next((f) => f.type === "hello"), benSocket.next((f) => f.type === "hello")]);

    const first = await ann.client.post("/api/like.php", { id: ben.profileId });
    expect(first.json()).toMatchObject({ id: ben.profileId, state: "liked", match: null });
    expect(await benSocket.next(isEvent("like.received"))).toMatchObject({
      type: "event",
      event: { type: "like.received", profile_id: ann.profileId },
    });

    // Ben answers through node B: the match reaches Ann's socket on node A, not marked as hers to show.
    const benOnB = ben.client.on(nodeB.server);
    const second = await benOnB.post("/api/like.php", { id: ann.profileId });
    expect(second.json()).toMatchObject({ state: "match", match: { id: ann.profileId, name: "Ann" } });
    expect(await annSocket.next(isEvent("like.match"))).toMatchObject({
      event: { type: "like.match", initiator: false, profile: { id: ben.profileId, name: "Ben" } },
    });
    expect(await benSocket.next(isEvent("like.match"))).toMatchObject({
      event: { type: "like.match", initiator: true, profile: { id: ann.profileId } },
    });
    // Exactly one match event each.
    expect(annSocket.frames.filter(isEvent("like.match"))).toHaveLength(1);
    expect(benSocket.frames.filter(isEvent("like.match"))).toHaveLength(1);
    annSocket.socket.close();
    benSocket.socket.close();
  });
});
