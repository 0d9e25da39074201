import { randomUUID } from "node:crypto";
import type { InboxLiveEvent, ServerFrame } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createMember, sqlCount, sqlRows } from "../../test/factories.ts";
import type { TestApp } from "../../test/harness.ts";
import { connectSocket, isEvent, useTwoNodes } from "../../test/sockets.ts";
import { staffLogin } from "../../test/staff.ts";

let nodeA: TestApp;
let nodeB: TestApp;

useTwoNodes({ seed: { profiles: 2 }, timeout: 120_000 }, (nodes) => {
  ({ nodeA, nodeB } = nodes);
});

/** The operator's live stream (server-sent events) of a conversation on `app`, read as it comes. */
async function openStream(app: TestApp, conversationId: number, cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${app.url}/staff/api/inbox/${conversationId}/live`, {
    headers: { cookie },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const events: InboxLiveEvent[] = [];
  const waiters: Array<() => void> = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const chunk = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (chunk.startsWith("data: ")) events.push(JSON.parse(chunk.slice(6)) as InboxLiveEvent);
          for (const wake of waiters.splice(0)) wake();
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    async next(match: (event: InboxLiveEvent) => boolean, timeoutMs = 10_000): Promise<InboxLiveEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no such event; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => controller.abort(),
  };
}

describe("the operators' inbox across two nodes", () => {
  it("delivers the operator's answer live to the member on the other node, with the fictional mark, at no charge", async () => {
    const [persona] = await sqlRows<{ id: number; user_id: number }>(
      nodeA.services.database.db,
      sql`select id, user_id from profiles where fictional order by id limit 1`,
    );
    const personaId = Number(persona?.id);
    const member = await createMember(nodeA, { activate: true, gender: "male", name: "Max", credits: 100 });
    const sent = await member.client.post("/api/message.php", {
      profile_id: personaId,
      client_id: randomUUID(),
      text: "Hi there",
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const id: number = sent.json().conversation_id;
    const balance = sent.json().credits;

    // The member's socket on node B; the operator works on node A.
    const socket = await connectSocket(nodeB, { cookie: member.client.cookieHeader() });
    await socket.next((f) => f.type === "hello");
    const operator = await staffLogin(nodeA, "operator");
    expect((await operator.client.post(`/staff/api/inbox/${id}/claim`)).statusCode).toBe(200);
    const stream = await openStream(nodeA, id, operator.cookie);

    // The member types on node B: the operator's stream on node A shows it.
    socket.socket.send(JSON.stringify({ type: "typing", conversation_id: id, typing: true }));
    expect(await stream.next((e) => e.type === "typing" && e.typing)).toEqual({ type: "typing", typing: true });
    // The member's next message reaches the stream too.
    await member.client
      .on(nodeB.server)
      .post("/api/message.php", { conversation_id: id, client_id: randomUUID(), text: "Still there?" });
    expect(await stream.next((e) => e.type === "message")).toMatchObject({
      type: "message",
      message: { text: "Still there?", profile_id: member.profileId },
    });

    // The operator types on node A: the member on node B sees the fictional profile typing.
    const typing = await operator.client.post(`/staff/api/inbox/${id}/typing`, { typing: true });
    expect(typing.statusCode, typing.body).toBe(200);
    expect(await socket.next((f: ServerFrame) => f.type === "event" && f.event.type === "chat.typing")).toMatchObject({
      event: { type: "chat.typing", conversation_id: id, typing: true },
    });

    // The answer, sent on node A, arrives live on node B.
    const answer = await operator.client.post(`/staff/api/inbox/${id}/answer`, {
      client_id: randomUUID(),
      text: "Yes, hello Max!",
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const frame = await socket.next(
      (f) => isEvent("chat.message")(f) && f.type === "event" && f.event.type === "chat.message" && !f.event.message.from_me,
    );
    expect(frame).toMatchObject({
      event: {
        type: "chat.message",
        conversation_id: id,
        message: { text: "Yes, hello Max!", profile_id: personaId, from_me: false },
      },
    });
    // The member's view of the conversation marks the profile fictional; nothing more was charged.
    const chat = (await member.client.on(nodeB.server).get(`/api/chat.php?id=${id}`)).json();
    expect(chat.profile).toMatchObject({ id: personaId, fictional: true });
    expect(chat.messages.at(-1)).toMatchObject({ text: "Yes, hello Max!", from_me: false });
    const credits = await sqlCount(
      nodeA.services.database.db,
      sql`select balance as n from credit_accounts where user_id = ${member.userId}`,
    );
    // One more paid message by the member ("Still there?"), nothing for the answer.
    expect(credits).toBe(balance - 10);
    // The stream ended after the answer released the claim? No: it stays until the page leaves.
    stream.close();
    socket.socket.close();
  });
});
