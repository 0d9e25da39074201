import { randomUUID } from "node:crypto";
import {
  badgesResponseSchema,
  CHAT_PAGE_SIZE,
  CHAT_PREVIEW_LENGTH,
  CHAT_RETENTION_DAYS,
  chatResponseSchema,
  chatsResponseSchema,
  LIMITS,
  type MemberEvent,
  mayWriteTo,
  messageResponseSchema,
} from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { block, createMember, type MemberOptions, sqlCount, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";

let database: TestDatabase;
let app: TestApp;

useTestApp({ listen: false, seed: { profiles: 0 }, timeout: 120_000 }, (env) => {
  ({ app, database } = env);
});

/** Settings of the default site: a message costs 10 credits; the signup bonus is 20. */
const COST = 10;
const member = (options: MemberOptions = {}) => createMember(app, { activate: true, ...options });
const pair = async (options: MemberOptions = {}) =>
  [await member({ gender: "female", ...options }), await member({ gender: "male", ...options })] as const;

const post = (client: TestClient, body: Record<string, unknown>) =>
  client.post("/api/message.php", { client_id: randomUUID(), text: "Hello", ...body });
async function send(client: TestClient, body: Record<string, unknown>) {
  const response = await post(client, body);
  expect(response.statusCode, response.body).toBe(200);
  return messageResponseSchema.parse(response.json());
}
async function chats(client: TestClient) {
  const response = await client.get("/api/chats.php");
  expect(response.statusCode, response.body).toBe(200);
  return chatsResponseSchema.parse(response.json());
}
async function open(client: TestClient, id: number, before?: number) {
  const response = await client.get(`/api/chat.php?id=${id}${before ? `&before=${before}` : ""}`);
  expect(response.statusCode, response.body).toBe(200);
  return chatResponseSchema.parse(response.json());
}
async function badges(client: TestClient) {
  const response = await client.get("/api/badges.php");
  expect(response.statusCode, response.body).toBe(200);
  return badgesResponseSchema.parse(response.json());
}
async function eventsOf(m: TestMember): Promise<MemberEvent[]> {
  return (await app.services.events.since(m.userId, 0)).events.map((e) => e.event);
}
const balanceOf = async (m: TestMember) => (await app.services.credits.account(app.services.database.db, m.userId)).credits;
const messagesOf = (m: TestMember) =>
  sqlCount(database.db, sql`select count(*)::int as n from messages where sender_id = ${m.profileId}`);
const debitsOf = (m: TestMember) =>
  sqlCount(database.db, sql`select count(*)::int as n from credit_ledger where user_id = ${m.userId} and reason = 'message'`);

describe("text chat", () => {
  it("sends, lists, opens (unread to 0, read event) and answers in order", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const first = await send(ann.client, { profile_id: ben.profileId, text: "Hi Ben <b>!</b>" });
    expect(first.credits).toBe(120 - COST);
    expect(first.message).toMatchObject({ from_me: true, text: "Hi Ben <b>!</b>", profile_id: ann.profileId });
    const id = first.conversation_id;
    const second = await send(ann.client, { conversation_id: id, text: "Are you there?" });
    expect(second.conversation_id).toBe(id);
    expect(second.message.id).toBeGreaterThan(first.message.id);

    // Ben's list: one conversation, two unread, the last message; the badge and totals agree.
    const list = await chats(ben.client);
    expect(list.chats).toHaveLength(1);
    expect(list.chats[0]).toMatchObject({
      conversation: { id },
      profile: { id: ann.profileId, fictional: false, main_image: null },
      num_unread_messages: 2,
      last_message: { text: "Are you there?", from_me: false },
    });
    expect(list.totals).toEqual({ messages: 1, unread_messages: 2, new_likes: 0 });
    expect((await badges(ben.client)).unread_messages).toBe(2);
    expect((await chats(ann.client)).chats[0]).toMatchObject({ num_unread_messages: 0, last_message: { from_me: true } });

    // The events: Ben got both messages (as the other side), which change his counts by themselves (no
    // badges.changed beside them); Ann's tabs got hers.
    const benEvents = await eventsOf(ben);
    expect(benEvents.filter((e) => e.type === "chat.message")).toEqual([
      { type: "chat.message", conversation_id: id, message: { ...first.message, from_me: false, client_id: null } },
      { type: "chat.message", conversation_id: id, message: { ...second.message, from_me: false, client_id: null } },
    ]);
    expect(benEvents.filter((e) => e.type === "badges.changed")).toEqual([]);
    expect((await eventsOf(ann)).filter((e) => e.type === "chat.message")).toHaveLength(2);

    // Ben opens it: messages newest last, unread 0, Ann hears how far he read.
    const opened = await open(ben.client, id);
    expect(opened.messages.map((m) => m.text)).toEqual(["Hi Ben <b>!</b>", "Are you there?"]);
    expect(opened).toMatchObject({ older_hidden: false, has_more: false, read_up_to: null, profile: { id: ann.profileId } });
    expect((await chats(ben.client)).chats[0]?.num_unread_messages).toBe(0);
    expect((await badges(ben.client)).unread_messages).toBe(0);
    expect((await eventsOf(ann)).filter((e) => e.type === "chat.read")).toEqual([
      { type: "chat.read", conversation_id: id, message_id: second.message.id },
    ]);
    // Opening again reads nothing new: no second read event.
    await open(ben.client, id);
    expect((await eventsOf(ann)).filter((e) => e.type === "chat.read")).toHaveLength(1);
    expect((await open(ann.client, id)).read_up_to).toBe(second.message.id);

    // Ben answers through the profile id: the same conversation.
    const answer = await send(ben.client, { profile_id: ann.profileId, text: "Yes!" });
    expect(answer.conversation_id).toBe(id);
    expect((await open(ann.client, id)).messages.map((m) => [m.text, m.from_me])).toEqual([
      ["Hi Ben <b>!</b>", true],
      ["Are you there?", true],
      ["Yes!", false],
    ]);
  });

  it("pages backwards by message id", async () => {
    const [ann, ben] = await pair({ paid: true, credits: 10_000 });
    const { conversation_id: id } = await send(ann.client, { profile_id: ben.profileId, text: "0" });
    for (let i = 1; i < CHAT_PAGE_SIZE + 5; i++) await send(ann.client, { conversation_id: id, text: String(i) });
    const page = await open(ben.client, id);
    expect(page.messages).toHaveLength(CHAT_PAGE_SIZE);
    expect(page.has_more).toBe(true);
    expect(page.messages.at(-1)?.text).toBe(String(CHAT_PAGE_SIZE + 4));
    const older = await open(ben.client, id, page.messages[0]?.id);
    expect(older.messages.map((m) => m.text)).toEqual(["0", "1", "2", "3", "4"]);
    expect(older.has_more).toBe(false);
  });

  it("a retry with the same client_id stores and charges once, also when fired concurrently", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const clientId = randomUUID();
    const body = { profile_id: ben.profileId, client_id: clientId, text: "Once" };
    const first = await send(ann.client, body);
    const again = await send(ann.client, body);
    expect(again.message).toEqual(first.message);
    expect(again.credits).toBe(first.credits);
    expect(await messagesOf(ann)).toBe(1);
    expect(await debitsOf(ann)).toBe(1);

    const racing = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        send(ann.client, { conversation_id: first.conversation_id, client_id: racing, text: "Race" }),
      ),
    );
    expect(new Set(answers.map((a) => a.message.id)).size).toBe(1);
    expect(await messagesOf(ann)).toBe(2);
    expect(await debitsOf(ann)).toBe(2);
    expect(await balanceOf(ann)).toBe(120 - 2 * COST);
    expect((await eventsOf(ben)).filter((e) => e.type === "chat.message")).toHaveLength(2);
  });

  it("sends in a ring at once (A→B, B→C, C→A) all go through: no deadlock between the members' event rows", async () => {
    const ring = [
      await member({ gender: "female", credits: 1000, paid: true }),
      await member({ gender: "male", credits: 1000, paid: true }),
      await member({ gender: "female", credits: 1000, paid: true }),
    ];
    for (let round = 0; round < 10; round += 1) {
      const answers = await Promise.all(
        ring.map((from, i) => post(from.client, { profile_id: (ring[(i + 1) % 3] as TestMember).profileId })),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    }
    for (const one of ring) expect(await messagesOf(one)).toBe(10);
  });

  it("refuses without enough credits and stores nothing", async () => {
    const [ann, ben] = await pair();
    await send(ann.client, { profile_id: ben.profileId });
    await send(ann.client, { profile_id: ben.profileId });
    expect(await balanceOf(ann)).toBe(0);
    const refused = await post(ann.client, { profile_id: ben.profileId });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ error: "not_enough_credits", message: "You do not have enough credits" });
    expect(await messagesOf(ann)).toBe(2);
    // A refused first message leaves no conversation behind either.
    const cal = await member({ gender: "male" });
    expect((await post(ann.client, { profile_id: cal.profileId })).statusCode).toBe(402);
    expect((await chats(cal.client)).chats).toEqual([]);
    expect(
      await sqlCount(database.db, sql`select count(*)::int as n from conversation_members where profile_id = ${cal.profileId}`),
    ).toBe(0);
  });

  it("refuses a text longer than message_length", async () => {
    const [ann, ben] = await pair();
    const { message_length: max } = await app.services.site.settingsFor("", "en");
    const refused = await post(ann.client, { profile_id: ben.profileId, text: "x".repeat(max + 1) });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe("message_too_long");
    expect(await messagesOf(ann)).toBe(0);
    await send(ann.client, { profile_id: ben.profileId, text: "x".repeat(max) });
    // The list's preview is cut; the conversation has the whole text.
    const [entry] = (await chats(ben.client)).chats;
    expect(entry?.last_message?.text).toBe("x".repeat(CHAT_PREVIEW_LENGTH));
    expect((await open(ben.client, entry?.conversation.id ?? 0)).messages[0]?.text).toHaveLength(max);
  });

  it("free members write in at most 2 conversations; premium members in more", async () => {
    const free = await member({ gender: "female", credits: 100 });
    const men = [await member({ gender: "male" }), await member({ gender: "male" }), await member({ gender: "male" })] as const;
    expect((await chats(free.client)).conversation_limit).toEqual({ max: 2, written_to: [] });
    await send(free.client, { profile_id: men[0].profileId });
    await send(free.client, { profile_id: men[1].profileId });
    // The list says so before a third first message is typed (issue #29): the two written to, of 2.
    const limit = (await chats(free.client)).conversation_limit;
    expect(limit).toEqual({ max: 2, written_to: [men[0].profileId, men[1].profileId].sort((a, b) => a - b) });
    expect(mayWriteTo(limit, men[0].profileId)).toBe(true);
    expect(mayWriteTo(limit, men[2].profileId)).toBe(false);
    // The existing two go on.
    await send(free.client, { profile_id: men[0].profileId });
    const refused = await post(free.client, { profile_id: men[2].profileId });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: "conversation_limit_reached" });
    expect(LIMITS.freeConversations).toBe(2);
    // Deleting one does not free a place.
    const list = await chats(free.client);
    await free.client.delete(`/api/chat.php?id=${list.chats[0]?.conversation.id}`);
    expect((await post(free.client, { profile_id: men[2].profileId })).statusCode).toBe(403);
    // A free member written to can answer within the limit too: men[2] writes to them, they cannot answer.
    await send(men[2].client, { profile_id: free.profileId });
    expect((await post(free.client, { profile_id: men[2].profileId })).json().error).toBe("conversation_limit_reached");

    const premium = await member({ gender: "female", paid: true, credits: 100 });
    for (const man of men) await send(premium.client, { profile_id: man.profileId });
    expect((await chats(premium.client)).chats).toHaveLength(3);
    expect((await chats(premium.client)).conversation_limit).toBeNull();
  });

  it("two first messages at once cannot both pass a free member's limit", async () => {
    const free = await member({ gender: "female", credits: 100 });
    const men = [await member({ gender: "male" }), await member({ gender: "male" }), await member({ gender: "male" })] as const;
    await send(free.client, { profile_id: men[0].profileId });
    const racing = await Promise.all([
      post(free.client, { profile_id: men[1].profileId }),
      post(free.client, { profile_id: men[2].profileId }),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 403]);
    expect((await chats(free.client)).chats).toHaveLength(LIMITS.freeConversations);
    expect(await debitsOf(free)).toBe(2);
  });

  it("refuses oneself, hidden, blocked and unknown profiles, strangers' conversations and visitors", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    expect((await post(ann.client, { profile_id: ann.profileId })).json().error).toBe("cannot_message_self");
    const invisible = await member({ gender: "male" });
    await database.db.execute(sql`update users set invisible = true where id = ${invisible.userId}`);
    expect((await post(ann.client, { profile_id: invisible.profileId })).json().error).toBe("profile_unavailable");
    expect((await post(ann.client, { profile_id: 2_000_000_000 })).json().error).toBe("profile_unavailable");
    const cal = await member({ gender: "male" });
    await block(app, cal, ann);
    expect((await post(ann.client, { profile_id: cal.profileId })).json().error).toBe("profile_unavailable");
    expect((await post(cal.client, { profile_id: ann.profileId })).json().error).toBe("profile_unavailable");
    // Someone else's conversation: not found, for sending, opening and deleting.
    const { conversation_id: id } = await send(ann.client, { profile_id: ben.profileId });
    expect((await post(cal.client, { conversation_id: id })).statusCode).toBe(404);
    expect((await cal.client.get(`/api/chat.php?id=${id}`)).statusCode).toBe(404);
    expect((await cal.client.delete(`/api/chat.php?id=${id}`)).statusCode).toBe(404);
    // Bad bodies.
    expect((await post(ann.client, { profile_id: ben.profileId, conversation_id: id })).statusCode).toBe(422);
    expect((await post(ann.client, { profile_id: ben.profileId, client_id: "nope" })).statusCode).toBe(422);
    expect((await post(ann.client, { profile_id: ben.profileId, text: "   " })).statusCode).toBe(422);
    const visitor = new TestClient(app.server);
    for (const response of [
      await post(visitor, { profile_id: ben.profileId }),
      await visitor.get("/api/chats.php"),
      await visitor.get(`/api/chat.php?id=${id}`),
      await visitor.delete(`/api/chat.php?id=${id}`),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe("authentication_required");
    }
    // A conversation whose other member became invisible leaves the list and cannot be opened.
    await database.db.execute(sql`update users set invisible = true where id = ${ben.userId}`);
    expect((await chats(ann.client)).chats).toEqual([]);
    expect((await ann.client.get(`/api/chat.php?id=${id}`)).statusCode).toBe(404);
  });

  it("a member with an unconfirmed address can write; the other sees it and cannot reply until it is confirmed", async () => {
    const una = await createMember(app, { gender: "female" });
    const ben = await member({ gender: "male", credits: 100 });
    const { conversation_id: id } = await send(una.client, { profile_id: ben.profileId, text: "Hi from Una" });
    const list = await chats(ben.client);
    expect(list.chats[0]).toMatchObject({ conversation: { id }, awaiting_confirmation: "other", num_unread_messages: 1 });
    expect((await badges(ben.client)).unread_messages).toBe(1);
    expect((await open(ben.client, id)).awaiting_confirmation).toBe("other");
    expect((await open(una.client, id)).awaiting_confirmation).toBe("me");
    const refused = await post(ben.client, { conversation_id: id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("recipient_unconfirmed");
    expect(await messagesOf(ben)).toBe(0);
    expect(await debitsOf(ben)).toBe(0);
    // Confirmed (as the e-mailed link does): Ben can answer.
    await database.db.execute(sql`update users set status = 'active' where id = ${una.userId}`);
    await app.services.profiles.activateForUser(database.db, una.userId);
    expect((await chats(ben.client)).chats[0]?.awaiting_confirmation).toBeNull();
    await send(ben.client, { conversation_id: id, text: "Welcome" });
  });

  it("blocking deletes the pair's conversation and tells both", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const { conversation_id: id } = await send(ann.client, { profile_id: ben.profileId });
    await send(ben.client, { profile_id: ann.profileId });
    expect((await badges(ann.client)).unread_messages).toBe(1);
    await block(app, ben, ann);
    expect((await chats(ann.client)).chats).toEqual([]);
    expect((await chats(ben.client)).chats).toEqual([]);
    expect((await badges(ann.client)).unread_messages).toBe(0);
    expect(await sqlCount(database.db, sql`select count(*)::int as n from messages where conversation_id = ${id}`)).toBe(0);
    expect(await eventsOf(ann)).toContainEqual({ type: "chat.deleted", conversation_id: id });
    expect(await eventsOf(ben)).toContainEqual({ type: "chat.deleted", conversation_id: id });
    // After an unblock they start afresh.
    await app.services.blocks.unblock(ben.profileId, ann.profileId);
    const again = await send(ann.client, { profile_id: ben.profileId, text: "Sorry" });
    expect(again.conversation_id).not.toBe(id);
    expect((await open(ben.client, again.conversation_id)).messages.map((m) => m.text)).toEqual(["Sorry"]);
  });

  it("deleting a chat removes it from one member's list; a new message brings it back without the old ones", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const { conversation_id: id } = await send(ann.client, { profile_id: ben.profileId, text: "Old" });
    expect((await badges(ben.client)).unread_messages).toBe(1);
    const deleted = await ben.client.delete(`/api/chat.php?id=${id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ id });
    expect((await chats(ben.client)).chats).toEqual([]);
    expect((await badges(ben.client)).unread_messages).toBe(0);
    expect((await ben.client.get(`/api/chat.php?id=${id}`)).statusCode).toBe(404);
    expect(await eventsOf(ben)).toContainEqual({ type: "chat.deleted", conversation_id: id });
    // Idempotent.
    expect((await ben.client.delete(`/api/chat.php?id=${id}`)).statusCode).toBe(200);
    // Ann still has it.
    expect((await chats(ann.client)).chats).toHaveLength(1);
    await send(ann.client, { conversation_id: id, text: "New" });
    const back = await chats(ben.client);
    expect(back.chats).toHaveLength(1);
    expect(back.chats[0]).toMatchObject({ num_unread_messages: 1, last_message: { text: "New" } });
    expect((await open(ben.client, id)).messages.map((m) => m.text)).toEqual(["New"]);
    expect((await open(ann.client, id)).messages.map((m) => m.text)).toEqual(["Old", "New"]);
  });

  it(`hides messages older than ${CHAT_RETENTION_DAYS} days`, async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const old = await send(ann.client, { profile_id: ben.profileId, text: "Long ago" });
    await database.db.execute(
      sql`update messages set created_at = now() - interval '${sql.raw(String(CHAT_RETENTION_DAYS + 1))} days' where id = ${old.message.id}`,
    );
    expect((await chats(ben.client)).chats[0]).toMatchObject({ num_unread_messages: 0, last_message: null });
    const opened = await open(ben.client, old.conversation_id);
    expect(opened).toMatchObject({ messages: [], older_hidden: true });
    await send(ann.client, { conversation_id: old.conversation_id, text: "Now" });
    expect((await open(ben.client, old.conversation_id)).messages.map((m) => m.text)).toEqual(["Now"]);

    // The daily job deletes the old message from the database; the line about older messages stays.
    const countOf = (id: number) => sqlCount(database.db, sql`select count(*)::int as n from messages where id = ${id}`);
    expect(await app.services.chat.purgeExpired(1)).toBeGreaterThanOrEqual(1);
    expect(await countOf(old.message.id)).toBe(0);
    expect(await open(ben.client, old.conversation_id)).toMatchObject({ messages: [{ text: "Now" }], older_hidden: true });
    const fresh = await send(ann.client, { profile_id: (await member({ gender: "male", credits: 0 })).profileId, text: "Hi" });
    expect(await countOf(fresh.message.id)).toBe(1);
  });

  it("stores whether a conversation involves a fictional profile", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    await database.db.execute(sql`update profiles set fictional = true where id = ${ben.profileId}`);
    const { conversation_id: id } = await send(ann.client, { profile_id: ben.profileId });
    expect(await sqlCount(database.db, sql`select count(*)::int as n from conversations where id = ${id} and fictional`)).toBe(1);
    expect((await chats(ann.client)).chats[0]?.profile.fictional).toBe(true);
  });
});

describe("chat_send_v1, the migration's one send", () => {
  it("is one transaction: a message the database refuses after the debit leaves no debit, conversation or event", async () => {
    const [ann, ben] = await pair({ credits: 100 });
    const balance = sql`select balance as n from credit_accounts where user_id = ${ann.userId}`;
    const balanceBefore = await sqlCount(database.db, balance);
    const eventsBefore = await sqlCount(
      database.db,
      sql`select count(*)::int as n from member_events where user_id = ${ann.userId}`,
    );
    const call = sql`select chat_send_v1(${ann.profileId}::int, ${ann.userId}::int, ${ben.profileId}::int, null::int, false, null::text,
          ${randomUUID()}::uuid, 'photo', '', null::text, null::jsonb, null::text, null::int, null::int,
          ${COST}::int, 'photo', ${LIMITS.freeConversations}::int, '{}'::jsonb, '{}'::jsonb, '/media/chat-photos/') as answer`;
    // A photo without its file breaks the messages_kind_content check, after the debit and the new conversation.
    await expect(database.db.execute(call)).rejects.toThrow();
    expect(
      await sqlCount(
        database.db,
        sql`select count(*)::int as n from conversations where ${ann.profileId} in (profile_a, profile_b)`,
      ),
    ).toBe(0);
    expect(
      await sqlCount(
        database.db,
        sql`select count(*)::int as n from credit_ledger where user_id = ${ann.userId} and reason = 'photo'`,
      ),
    ).toBe(0);
    expect(await sqlCount(database.db, sql`select count(*)::int as n from member_events where user_id = ${ann.userId}`)).toBe(
      eventsBefore,
    );
    expect(await sqlCount(database.db, balance)).toBe(balanceBefore);
    expect((await chats(ann.client)).chats).toEqual([]);
    // The same member's next send goes through as usual.
    const sent = await send(ann.client, { profile_id: ben.profileId });
    expect(sent.credits).toBe(balanceBefore - COST);
  });
});
