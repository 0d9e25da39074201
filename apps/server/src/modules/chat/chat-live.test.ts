import { randomUUID } from "node:crypto";
import type { ServerFrame } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createMember, sqlRows } from "../../test/factories.ts";
import type { TestApp } from "../../test/harness.ts";
import { connectSocket, isEvent, type TwoNodes, useTwoNodes } from "../../test/sockets.ts";

let nodes: TwoNodes;
let nodeA: TestApp;
let nodeB: TestApp;

useTwoNodes({ seed: { profiles: 0 }, timeout: 120_000 }, (opened) => {
  nodes = opened;
  ({ nodeA, nodeB } = nodes);
});

describe("chat live across two server nodes", () => {
  it("delivers chat.message and chat.read to the other member's socket on the other node, once each", async () => {
    const ann = await createMember(nodeA, { activate: true, gender: "female", name: "Ann", credits: 100 });
    const ben = await createMember(nodeA, { activate: true, gender: "male", name: "Ben", credits: 100 });
    const annSocket = await connectSocket(nodeA, { cookie: ann.client.cookieHeader() });
    const benSocket = await connectSocket(nodeB, { cookie: ben.client.cookieHeader() });
    await Promise.all([annSocket.next((f) => f.type === "hello"), benSocket.next((f) => f.type === "hello")]);

    // Ann sends on node A, twice with the same client_id (a retry): Ben's socket on node B gets it once.
    const body = { profile_id: ben.profileId, client_id: randomUUID(), text: "Hi Ben" };
    const sent = await ann.client.post("/api/message.php", body);
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await ann.client.post("/api/message.php", body)).json()).toEqual(sent.json());
    const { conversation_id: id, message } = sent.json();
    expect(await benSocket.next(isEvent("chat.message"))).toMatchObject({
      type: "event",
      event: {
        type: "chat.message",
        conversation_id: id,
        message: { id: message.id, text: "Hi Ben", from_me: false, client_id: null },
      },
    });

    // Ben opens it and answers on node B: Ann hears the read mark and the answer on node A.
    const benOnB = ben.client.on(nodeB.server);
    expect((await benOnB.get(`/api/chat.php?id=${id}`)).statusCode).toBe(200);
    expect(await annSocket.next(isEvent("chat.read"))).toMatchObject({
      event: { type: "chat.read", conversation_id: id, message_id: message.id },
    });
    const answer = await benOnB.post("/api/message.php", { conversation_id: id, client_id: randomUUID(), text: "Hi Ann" });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(
      await annSocket.next(
        (f) => isEvent("chat.message")(f) && f.type === "event" && f.event.type === "chat.message" && !f.event.message.from_me,
      ),
    ).toMatchObject({
      event: { type: "chat.message", conversation_id: id, message: { text: "Hi Ann", from_me: false } },
    });
    // Each side's own tabs hear their own message too (from_me): then each socket has had exactly two.
    const mine = (f: ServerFrame) => f.type === "event" && f.event.type === "chat.message" && f.event.message.from_me;
    await Promise.all([annSocket.next(mine), benSocket.next(mine)]);
    expect(benSocket.frames.filter(isEvent("chat.message"))).toHaveLength(2);
    expect(annSocket.frames.filter(isEvent("chat.message"))).toHaveLength(2);
    annSocket.socket.close();
    benSocket.socket.close();
  });
  it("forwards typing to the other member across nodes, throttled, never stored, and refuses strangers", async () => {
    const ann = await createMember(nodeA, { activate: true, gender: "female", name: "Ann", credits: 100 });
    const ben = await createMember(nodeA, { activate: true, gender: "male", name: "Ben", credits: 100 });
    const sent = await ann.client.post("/api/message.php", { profile_id: ben.profileId, client_id: randomUUID(), text: "Hi" });
    const { conversation_id: id } = sent.json();
    const annSocket = await connectSocket(nodeA, { cookie: ann.client.cookieHeader() });
    const benSocket = await connectSocket(nodeB, { cookie: ben.client.cookieHeader() });
    await Promise.all([annSocket.next((f) => f.type === "hello"), benSocket.next((f) => f.type === "hello")]);

    // Three starts in a row (well within TYPING_THROTTLE_MS), then a stop: Ben sees one start and the stop.
    const typing = (value: boolean) => (f: ServerFrame) =>
      f.type === "event" && f.event.type === "chat.typing" && f.event.typing === value;
    for (let i = 0; i < 3; i++) annSocket.socket.send(JSON.stringify({ type: "typing", conversation_id: id, typing: true }));
    await benSocket.next(typing(true));
    annSocket.socket.send(JSON.stringify({ type: "typing", conversation_id: id, typing: false }));
    expect(await benSocket.next(typing(false))).toEqual({
      type: "event",
      seq: null,
      event: { type: "chat.typing", conversation_id: id, typing: false },
    });
    expect(benSocket.frames.filter(typing(true))).toHaveLength(1);
    // Ephemeral: nothing was recorded for Ben.
    const recorded = (await nodeA.services.events.since(ben.userId, 0)).events.map((e) => e.event.type);
    expect(recorded).not.toContain("chat.typing");

    // Someone who is not in the conversation gets an error and the members hear nothing.
    const eve = await createMember(nodeA, { activate: true, gender: "female", name: "Eve" });
    const eveSocket = await connectSocket(nodeA, { cookie: eve.client.cookieHeader() });
    eveSocket.socket.send(JSON.stringify({ type: "typing", conversation_id: id, typing: true }));
    expect(await eveSocket.next((f) => f.type === "error")).toMatchObject({ type: "error", error: "not_found" });
    const visitor = await connectSocket(nodeB);
    visitor.socket.send(JSON.stringify({ type: "typing", conversation_id: id, typing: true }));
    expect(await visitor.next((f) => f.type === "error")).toMatchObject({ error: "authentication_required" });
    expect(benSocket.frames.filter(typing(true))).toHaveLength(1);

    // After Ben blocks Ann (on Ann's node, which remembered whom her typing goes to), it goes nowhere.
    await nodeA.services.blocks.block(ben.profileId, ann.profileId);
    annSocket.socket.send(JSON.stringify({ type: "typing", conversation_id: id, typing: true }));
    expect(await annSocket.next((f) => f.type === "error")).toMatchObject({ error: "not_found" });
    expect(benSocket.frames.filter(typing(true))).toHaveLength(1);
    for (const socket of [annSocket, benSocket, eveSocket, visitor]) socket.socket.close();
  });

  it("sends over the socket as POST /api/message.php does: once per client_id on either path, refusals with the HTTP status", async () => {
    const ann = await createMember(nodeA, { activate: true, gender: "female", name: "Ann", credits: 5 }); // + 20 at signup
    const ben = await createMember(nodeA, { activate: true, gender: "male", name: "Ben", credits: 100 });
    const annSocket = await connectSocket(nodeA, { cookie: ann.client.cookieHeader() });
    const benSocket = await connectSocket(nodeB, { cookie: ben.client.cookieHeader() });
    const [hello] = await Promise.all([annSocket.next((f) => f.type === "hello"), benSocket.next((f) => f.type === "hello")]);
    // The node says it takes `send` frames (a page uses them only then).
    expect(hello).toMatchObject({ type: "hello", accepts: expect.arrayContaining(["send", "typing", "resume", "ping"]) });
    const answerTo = (clientId: string) => (f: ServerFrame) =>
      (f.type === "sent" && f.answer.message.client_id === clientId) || (f.type === "send_failed" && f.client_id === clientId);

    // Ann's first message over her socket on node A: she gets `sent`, Ben's socket on node B the event.
    const first = { profile_id: ben.profileId, client_id: randomUUID(), text: "Hi over the socket" };
    annSocket.socket.send(JSON.stringify({ type: "send", message: first }));
    const sent = await annSocket.next(answerTo(first.client_id));
    expect(sent).toMatchObject({ type: "sent", answer: { credits: 15, message: { text: "Hi over the socket", from_me: true } } });
    if (sent.type !== "sent") throw new Error("not sent");
    const { conversation_id: id, message } = sent.answer;
    expect(await benSocket.next(isEvent("chat.message"))).toMatchObject({
      event: { type: "chat.message", conversation_id: id, message: { id: message.id, from_me: false } },
    });

    // The same client_id again, over the socket and over HTTP: the same message, charged once.
    annSocket.socket.send(JSON.stringify({ type: "send", message: first }));
    await annSocket.next((f) => answerTo(first.client_id)(f) && f !== sent);
    const replays = annSocket.frames.filter(answerTo(first.client_id));
    expect(replays).toHaveLength(2);
    expect(replays[1]).toEqual(sent);
    const overHttp = await ann.client.post("/api/message.php", first);
    expect(overHttp.json()).toEqual(sent.answer);
    expect((await ann.client.get("/api/user.php")).json().user.credits).toBe(15);

    // 15 credits left, a message costs 10: the second goes, the third is refused with 402 in her language.
    const second = { conversation_id: id, client_id: randomUUID(), text: "Second" };
    annSocket.socket.send(JSON.stringify({ type: "send", message: second }));
    expect(await annSocket.next(answerTo(second.client_id))).toMatchObject({ type: "sent", answer: { credits: 5 } });
    const third = { conversation_id: id, client_id: randomUUID(), text: "Third" };
    annSocket.socket.send(JSON.stringify({ type: "send", message: third }));
    expect(await annSocket.next(answerTo(third.client_id))).toEqual({
      type: "send_failed",
      client_id: third.client_id,
      status: 402,
      body: { error: "not_enough_credits", message: "You do not have enough credits" },
    });
    const texts = async () =>
      ((await ben.client.get(`/api/chat.php?id=${id}`)).json().messages as { text: string }[]).map((m) => m.text);
    expect(await texts()).toEqual(["Hi over the socket", "Second"]);

    // Someone else's conversation is not found; a visitor's socket is told to log in; nothing is stored.
    const eve = await createMember(nodeA, { activate: true, gender: "female", name: "Eve", credits: 100 });
    const eveSocket = await connectSocket(nodeB, { cookie: eve.client.cookieHeader() });
    await eveSocket.next((f) => f.type === "hello");
    const intruding = { conversation_id: id, client_id: randomUUID(), text: "Let me in" };
    eveSocket.socket.send(JSON.stringify({ type: "send", message: intruding }));
    expect(await eveSocket.next(answerTo(intruding.client_id))).toMatchObject({ type: "send_failed", status: 404 });
    const visitor = await connectSocket(nodeA);
    const anonymous = { profile_id: ben.profileId, client_id: randomUUID(), text: "Hello?" };
    visitor.socket.send(JSON.stringify({ type: "send", message: anonymous }));
    expect(await visitor.next(answerTo(anonymous.client_id))).toMatchObject({
      type: "send_failed",
      status: 403,
      body: { error: "authentication_required" },
    });
    expect(await texts()).toEqual(["Hi over the socket", "Second"]);
    for (const socket of [annSocket, benSocket, eveSocket, visitor]) socket.socket.close();
  });

  it("checks a socket's session and premium flag in each send, not as they were when it opened", async () => {
    const free = await createMember(nodeA, { activate: true, gender: "female", name: "Fay", credits: 100 });
    const man = (name: string) => createMember(nodeA, { activate: true, gender: "male", name, credits: 100 });
    const men = [await man("Max"), await man("Nil"), await man("Oto")] as const;
    const socket = await connectSocket(nodeA, { cookie: free.client.cookieHeader() });
    await socket.next((f) => f.type === "hello");
    const sendTo = async (profileId: number) => {
      const clientId = randomUUID();
      socket.socket.send(JSON.stringify({ type: "send", message: { profile_id: profileId, client_id: clientId, text: "Hi" } }));
      return socket.next(
        (f) =>
          (f.type === "sent" && f.answer.message.client_id === clientId) ||
          (f.type === "send_failed" && f.client_id === clientId),
      );
    };

    // A free member: two conversations, the third refused (spec §6, §9)...
    expect(await sendTo(men[0].profileId)).toMatchObject({ type: "sent" });
    const second = await sendTo(men[1].profileId);
    if (second.type !== "sent") throw new Error(`not sent: ${JSON.stringify(second)}`);
    const left = second.answer.credits;
    expect(await sendTo(men[2].profileId)).toMatchObject({
      type: "send_failed",
      status: 403,
      body: { error: "conversation_limit_reached" },
    });
    // ...until a purchase makes her premium while her socket stays open: the next send knows it.
    await nodeA.services.credits.grantPremium(nodes.database.db, free.userId);
    expect(await sendTo(men[2].profileId)).toMatchObject({ type: "sent", answer: { credits: left - 10 } });

    // Her session ends without the node closing her socket (as if the bus message were still on its
    // way): the next frame is refused, nothing stored, nothing charged.
    await nodes.database.db.execute(sql`delete from "sessions" where "user_id" = ${free.userId}`);
    expect(await sendTo(men[0].profileId)).toMatchObject({
      type: "send_failed",
      status: 403,
      body: { error: "authentication_required" },
    });
    const [stored] = await sqlRows<{ n: number }>(
      nodes.database.db,
      sql`select count(*)::int as "n" from "messages" m join "profiles" p on p."id" = m."sender_id" where p."user_id" = ${free.userId}`,
    );
    expect(stored?.n).toBe(3);
    const [balance] = await sqlRows<{ balance: number }>(
      nodes.database.db,
      sql`select "balance" from "credit_accounts" where "user_id" = ${free.userId}`,
    );
    expect(balance?.balance).toBe(left - 10);
    socket.socket.close();
  });

  it("delivers the same message events it stores for a resume, whichever way the send was stored", async () => {
    const ann = await createMember(nodeA, { activate: true, gender: "female", name: "Ada", credits: 100 });
    const ben = await createMember(nodeA, { activate: true, gender: "male", name: "Bob", credits: 100 });
    const benSocket = await connectSocket(nodeB, { cookie: ben.client.cookieHeader() });
    const annSocket = await connectSocket(nodeA, { cookie: ann.client.cookieHeader() });
    await Promise.all([benSocket.next((f) => f.type === "hello"), annSocket.next((f) => f.type === "hello")]);
    // A first message (the conversation is made: the transaction path), then a text, a gift and a GIF
    // in it (the send function), over HTTP and over the socket.
    const first = await ann.client.post("/api/message.php", {
      profile_id: ben.profileId,
      client_id: randomUUID(),
      text: "First",
    });
    expect(first.statusCode, first.body).toBe(200);
    const id = first.json().conversation_id as number;
    const [gif] = (await ann.client.get("/api/gifs.php?q=hallo&locale=nl_NL")).json().gifs as { id: string }[];
    expect(gif).toBeDefined();
    const bodies = [
      { conversation_id: id, client_id: randomUUID(), text: "Second, it's 'quoted' \\ and \"double\"" },
      { conversation_id: id, client_id: randomUUID(), gift: "rose", text: "A rose" },
      { conversation_id: id, client_id: randomUUID(), gif: gif?.id },
    ];
    for (const body of bodies.slice(0, 2)) expect((await ann.client.post("/api/message.php", body)).statusCode).toBe(200);
    annSocket.socket.send(JSON.stringify({ type: "send", message: bodies[2] }));
    expect(await annSocket.next((f) => f.type === "sent" || f.type === "send_failed")).toMatchObject({ type: "sent" });
    for (const [member, socket] of [
      [ben, benSocket],
      [ann, annSocket],
    ] as const) {
      const live = async () => socket.frames.filter(isEvent("chat.message"));
      await expect.poll(async () => (await live()).length).toBe(4);
      const stored = await nodeA.services.events.since(member.userId, 0);
      for (const frame of await live()) {
        if (frame.type !== "event") throw new Error("not an event");
        expect(stored.events.find((e) => e.seq === frame.seq)).toEqual({ seq: frame.seq, event: frame.event });
      }
      expect(
        (await live()).map((f) => (f.type === "event" && f.event.type === "chat.message" ? f.event.message.kind : null)),
      ).toEqual(["text", "text", "gift", "gif"]);
    }
    benSocket.socket.close();
    annSocket.socket.close();
  });
});
