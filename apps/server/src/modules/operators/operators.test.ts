import { randomUUID } from "node:crypto";
import { INBOX_PAGE_SIZE } from "@app/contract";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { createMember, sqlCount, sqlRows, type TestMember } from "../../test/factories.ts";
import { useTestApp } from "../../test/harness.ts";
import { staffLogin } from "../../test/staff.ts";

const context = useTestApp({ seed: { profiles: 6 }, timeout: 120_000 });
const db = () => context.app.services.database.db;

/** The seeded fictional profiles (profile and user ids), in id order. */
let personas: { id: number; user_id: number }[] = [];
beforeAll(async () => {
  personas = (
    await sqlRows<{ id: number; user_id: number }>(db(), sql`select id, user_id from profiles where fictional order by id`)
  ).map((row) => ({ id: Number(row.id), user_id: Number(row.user_id) }));
  expect(personas.length).toBeGreaterThanOrEqual(4);
});

const persona = (i: number) => personas[i] as { id: number; user_id: number };

async function write(member: TestMember, to: number | { conversation: number }, text: string): Promise<number> {
  const target = typeof to === "number" ? { profile_id: to } : { conversation_id: to.conversation };
  const response = await member.client.post("/api/message.php", { ...target, client_id: randomUUID(), text });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().conversation_id;
}

const balanceOf = async (userId: number) =>
  sqlCount(db(), sql`select coalesce((select balance from credit_accounts where user_id = ${userId}), 0)::int as n`);
const auditCount = (action: string, objectId: number | string) =>
  sqlCount(db(), sql`select count(*)::int as n from staff_audit where action = ${action} and object_id = ${String(objectId)}`);

/** Leaves no waiting conversation behind (each test starts from an empty queue). */
async function clearQueue() {
  await db().execute(sql`update conversations set waiting_since = null`);
}

describe("the operators' queue", () => {
  it("lists conversations with a fictional profile whose member waits, oldest first, with a count, and nothing else", async () => {
    await clearQueue();
    const operator = await staffLogin(context.app, "operator");
    const ann = await createMember(context.app, { activate: true, gender: "female", name: "Ann", credits: 200 });
    const bob = await createMember(context.app, { activate: true, gender: "male", name: "Bob", credits: 200 });
    const first = await write(ann, persona(0).id, "Hello there");
    const second = await write(bob, persona(1).id, "Hi!");
    // Ann writes again: her wait still counts from her first message.
    await write(ann, { conversation: first }, "Are you there?");
    // A conversation between two members never waits.
    await write(ann, bob.profileId, "Hi Bob");

    const queue = await operator.client.get("/staff/api/inbox");
    expect(queue.statusCode, queue.body).toBe(200);
    const body = queue.json();
    expect(body.waiting).toBe(2);
    expect(body.items.map((item: { conversation_id: number }) => item.conversation_id)).toEqual([first, second]);
    expect(body.items[0]).toMatchObject({
      persona: { id: persona(0).id },
      member: { id: ann.profileId, name: "Ann" },
      last_message: { kind: "text", text: "Are you there?" },
      claim: null,
    });
    expect(body.next).toBeNull();

    // The persona answers the first: it leaves the queue; Ann writes again and it comes back last.
    await operator.client.post(`/staff/api/inbox/${first}/claim`);
    const answered = await operator.client.post(`/staff/api/inbox/${first}/answer`, { client_id: randomUUID(), text: "I am!" });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(
      (await operator.client.get("/staff/api/inbox")).json().items.map((i: { conversation_id: number }) => i.conversation_id),
    ).toEqual([second]);
    await write(ann, { conversation: first }, "Great");
    const again = (await operator.client.get("/staff/api/inbox")).json();
    expect(again.items.map((i: { conversation_id: number }) => i.conversation_id)).toEqual([second, first]);
    expect(again.waiting).toBe(2);
  });

  it("pages with `next` in the same order, and reads the queue from the partial index", async () => {
    await clearQueue();
    const operator = await staffLogin(context.app, "operator");
    const member = await createMember(context.app, { activate: true, gender: "male", credits: 500, paid: true });
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await write(member, persona(i).id, `Hi ${i}`));
    // More than a page: the waits of many conversations, made directly (the same member wrote four).
    await db().execute(
      sql`update conversations set waiting_since = now() - make_interval(secs => 1000 - id) where id = any(${sql.param(ids)}::int[])`,
    );
    const page = (await operator.client.get("/staff/api/inbox")).json();
    expect(page.items.map((i: { conversation_id: number }) => i.conversation_id)).toEqual([...ids].sort((a, b) => a - b));
    expect(INBOX_PAGE_SIZE).toBeGreaterThan(4);
    if (context.database.kind === "postgres") {
      // A few rows here: the planner is told to prefer an index, as it does by itself at scale (bench:inbox).
      const plan = await db().transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return sqlRows<{ "QUERY PLAN": string }>(
          tx,
          sql`explain select id from conversations where waiting_since is not null order by waiting_since, id limit 50`,
        );
      });
      expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toContain("conversations_waiting");
    }
  });
});

describe("claims", () => {
  it("two operators claiming at once: exactly one wins, the other is told who holds it", async () => {
    await clearQueue();
    const [one, two] = await Promise.all([staffLogin(context.app, "operator"), staffLogin(context.app, "operator")]);
    const member = await createMember(context.app, { activate: true, gender: "male", credits: 100, paid: true });
    for (let round = 0; round < 4; round++) {
      const id = await write(member, persona(round).id, `Round ${round}`);
      await db().execute(sql`delete from operator_claims where conversation_id = ${id}`);
      const answers = await Promise.all([
        one.client.post(`/staff/api/inbox/${id}/claim`),
        two.client.post(`/staff/api/inbox/${id}/claim`),
      ]);
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses, answers.map((a) => a.body).join(" ")).toEqual([200, 409]);
      expect(answers.find((a) => a.statusCode === 409)?.json().error).toBe("inbox_claimed");
      const rows = await sqlRows<{ staff_id: number }>(
        db(),
        sql`select staff_id from operator_claims where conversation_id = ${id}`,
      );
      const winner = answers[0]?.statusCode === 200 ? one : two;
      expect(rows.map((r) => Number(r.staff_id))).toEqual([winner.staff.id]);
      // Only the winner's claim is in the audit log.
      expect(await auditCount("inbox.claim", id)).toBe(1);
      // The queue shows it held (by whom, and whether it is mine).
      const item = (await one.client.get("/staff/api/inbox"))
        .json()
        .items.find((i: { conversation_id: number }) => i.conversation_id === id);
      expect(item.claim).toMatchObject({ staff_id: winner.staff.id, mine: winner === one });
      await winner.client.post(`/staff/api/inbox/${id}/release`);
    }
  });

  it("a lease runs out (then another operator may claim), is renewed by its holder only, and released on leaving", async () => {
    const [one, two] = await Promise.all([staffLogin(context.app, "operator"), staffLogin(context.app, "admin")]);
    const member = await createMember(context.app, { activate: true, gender: "female", credits: 100 });
    const id = await write(member, persona(2).id, "Anyone?");
    const claimed = await one.client.post(`/staff/api/inbox/${id}/claim`);
    expect(claimed.statusCode).toBe(200);
    expect(new Date(claimed.json().expires_at).getTime() - Date.now()).toBeGreaterThan(100_000);
    expect((await two.client.post(`/staff/api/inbox/${id}/renew`)).json().error).toBe("inbox_not_claimed");
    expect((await one.client.post(`/staff/api/inbox/${id}/renew`)).statusCode).toBe(200);
    // The lease ran out: the admin (operators' rights implied) takes it; the first operator can no longer answer.
    await db().execute(sql`update operator_claims set expires_at = now() - interval '1 second' where conversation_id = ${id}`);
    expect((await two.client.post(`/staff/api/inbox/${id}/claim`)).statusCode).toBe(200);
    const late = await one.client.post(`/staff/api/inbox/${id}/answer`, { client_id: randomUUID(), text: "Sorry" });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe("inbox_not_claimed");
    expect(await sqlCount(db(), sql`select count(*)::int as n from messages where conversation_id = ${id}`)).toBe(1);
    // Typing needs the claim; a stop without it (racing the answer that released it) is a harmless no-op.
    expect((await one.client.post(`/staff/api/inbox/${id}/typing`, { typing: true })).json().error).toBe("inbox_not_claimed");
    expect((await one.client.post(`/staff/api/inbox/${id}/typing`, { typing: false })).statusCode).toBe(200);
    // Leaving releases it: the first operator may claim again.
    expect((await two.client.post(`/staff/api/inbox/${id}/release`)).statusCode).toBe(200);
    expect((await one.client.post(`/staff/api/inbox/${id}/claim`)).statusCode).toBe(200);
  });

  it("refuses conversations between members (404) and members' sessions (404)", async () => {
    const operator = await staffLogin(context.app, "operator");
    const ann = await createMember(context.app, { activate: true, gender: "female", credits: 100 });
    const ben = await createMember(context.app, { activate: true, gender: "male", credits: 100 });
    const id = await write(ann, ben.profileId, "Hi Ben");
    for (const path of ["claim", "answer"]) {
      const response = await operator.client.post(`/staff/api/inbox/${id}/${path}`, { client_id: randomUUID(), text: "x" });
      expect(response.statusCode).toBe(404);
    }
    expect((await operator.client.get(`/staff/api/inbox/${id}`)).statusCode).toBe(404);
    expect((await ann.client.get("/staff/api/inbox")).statusCode).toBe(404);
    expect((await ann.client.get(`/staff/api/inbox/${id}/live`)).statusCode).toBe(404);
    const moderator = await staffLogin(context.app, "moderator");
    expect((await moderator.client.get(`/staff/api/inbox/${id}/live`)).json().error).toBe("staff_forbidden");
  });
});

describe("answers as the fictional profile", () => {
  it("stores the answer through the chat's send: nobody pays, the wait is recorded, the claim released, the audit written", async () => {
    await clearQueue();
    const operator = await staffLogin(context.app, "operator");
    const member = await createMember(context.app, { activate: true, gender: "male", credits: 100 });
    const id = await write(member, persona(3).id, "Hello?");
    const memberBalance = await balanceOf(member.userId);
    const personaLedger = () =>
      sqlCount(db(), sql`select count(*)::int as n from credit_ledger where user_id = ${persona(3).user_id}`);
    const ledgerBefore = await personaLedger();

    // Without a claim: refused, nothing stored.
    const unclaimed = await operator.client.post(`/staff/api/inbox/${id}/answer`, { client_id: randomUUID(), text: "Hi" });
    expect(unclaimed.statusCode).toBe(409);
    await operator.client.post(`/staff/api/inbox/${id}/claim`);
    // Not one kind: 422, nothing stored.
    const both = await operator.client.post(`/staff/api/inbox/${id}/answer`, { client_id: randomUUID(), text: "Hi", gif: "x" });
    expect(both.statusCode).toBe(422);

    const clientId = randomUUID();
    const answer = await operator.client.post(`/staff/api/inbox/${id}/answer`, {
      client_id: clientId,
      text: "Hi, nice to meet you",
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      conversation_id: id,
      message: { profile_id: persona(3).id, from_me: true, kind: "text", text: "Hi, nice to meet you" },
    });
    // A gift, a GIF and one of the persona's photos after claiming again.
    await operator.client.post(`/staff/api/inbox/${id}/claim`);
    const gift = await operator.client.post(`/staff/api/inbox/${id}/answer`, {
      client_id: randomUUID(),
      gift: "rose",
      text: "For you",
    });
    expect(gift.statusCode, gift.body).toBe(200);
    await operator.client.post(`/staff/api/inbox/${id}/claim`);
    // The composer's GIFs: the site's GIF source, as members find them.
    const gifs = await operator.client.get("/staff/api/inbox/gifs?q=");
    expect(gifs.statusCode, gifs.body).toBe(200);
    const gifId = gifs.json().gifs[0].id;
    const gif = await operator.client.post(`/staff/api/inbox/${id}/answer`, { client_id: randomUUID(), gif: gifId });
    expect(gif.statusCode, gif.body).toBe(200);
    await operator.client.post(`/staff/api/inbox/${id}/claim`);
    const view = (await operator.client.get(`/staff/api/inbox/${id}`)).json();
    const photoId = view.persona.photos[0].id;
    const photo = await operator.client.post(`/staff/api/inbox/${id}/answer`, { client_id: randomUUID(), photo_id: photoId });
    expect(photo.statusCode, photo.body).toBe(200);
    expect(photo.json().message.photo).toMatchObject({ width: expect.any(Number) });
    // The operator's view shows it (the member side serves it to the pair only).
    const served = await operator.client.get(`/staff/api/inbox/${id}/photos/${photo.json().message.id}.jpg`);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/jpeg");
    expect((await operator.client.get(`/staff/api/inbox/${id}/photos/${answer.json().message.id}.jpg`)).statusCode).toBe(404);
    expect((await member.client.get(`/staff/api/inbox/${id}/photos/${photo.json().message.id}.jpg`)).statusCode).toBe(404);
    // Another profile's photo: 404.
    await operator.client.post(`/staff/api/inbox/${id}/claim`);
    const foreign = await sqlCount(db(), sql`select id as n from photos where profile_id = ${persona(0).id} limit 1`);
    const wrongPhoto = await operator.client.post(`/staff/api/inbox/${id}/answer`, {
      client_id: randomUUID(),
      photo_id: foreign,
    });
    expect(wrongPhoto.statusCode).toBe(404);
    await operator.client.post(`/staff/api/inbox/${id}/release`);

    // Nobody paid: the member's balance is as it was, the fictional member has no ledger row for it.
    expect(await balanceOf(member.userId)).toBe(memberBalance);
    expect(await personaLedger()).toBe(ledgerBefore);
    // The member sees the answers, from a profile marked fictional.
    const chat = (await member.client.get(`/api/chat.php?id=${id}`)).json();
    expect(chat.profile).toMatchObject({ id: persona(3).id, fictional: true });
    expect(chat.messages.map((m: { kind: string }) => m.kind).sort()).toEqual(["gif", "gift", "photo", "text", "text"]);
    // The figures got one first answer (the later ones answered no wait); the audit has each answer.
    const answers = await sqlRows<{ waited: boolean }>(
      db(),
      sql`select waited_since is not null as waited from operator_answers where conversation_id = ${id} order by id`,
    );
    expect(answers.map((a) => a.waited)).toEqual([true, false, false, false]);
    expect(await auditCount("inbox.answer", id)).toBe(4);
    expect(await sqlCount(db(), sql`select count(*)::int as n from operator_claims where conversation_id = ${id}`)).toBe(0);
    // Leaving after the answer (the page releases what it held) ends nothing and writes no audit row.
    expect((await operator.client.post(`/staff/api/inbox/${id}/release`)).statusCode).toBe(200);
    expect(await auditCount("inbox.release", id)).toBe(1); // the one after the foreign photo's refusal
    // A retry of the first answer (same client_id) stores nothing new.
    await operator.client.post(`/staff/api/inbox/${id}/claim`);
    const retry = await operator.client.post(`/staff/api/inbox/${id}/answer`, {
      client_id: clientId,
      text: "Hi, nice to meet you",
    });
    expect(retry.json().message.id).toBe(answer.json().message.id);
    expect(await sqlCount(db(), sql`select count(*)::int as n from operator_answers where conversation_id = ${id}`)).toBe(4);

    // The figures: one answer with a wait, for this operator.
    const figures = (await operator.client.get("/staff/api/inbox/figures?hours=1")).json();
    const mine = figures.per_operator.find((row: { staff_id: number }) => row.staff_id === operator.staff.id);
    expect(mine).toMatchObject({ answers: 1, name: operator.staff.name });
    expect(mine.median_seconds).toBeGreaterThanOrEqual(0);
    expect(figures.per_hour.length).toBeGreaterThan(0);
  });

  it("writes the audit row in the change's transaction: a failed change leaves none, a failed audit undoes the change", async () => {
    const operator = await staffLogin(context.app, "operator");
    const member = await createMember(context.app, { activate: true, gender: "female", credits: 100 });
    const { operators } = context.app.services;
    const actor = { staff: operator.staff, address: "127.0.0.1" };
    // A first message from a persona to a profile nobody may write to: refused, no message, no audit row.
    const before = await sqlCount(db(), sql`select count(*)::int as n from staff_audit where staff_id = ${operator.staff.id}`);
    await expect(
      operators.messageAsPersona(
        actor,
        { persona_id: persona(0).id, member_id: 2_000_000, client_id: randomUUID(), text: "Hi" },
        {
          maxLength: 1000,
        },
      ),
    ).rejects.toMatchObject({ code: "profile_unavailable" });
    expect(await sqlCount(db(), sql`select count(*)::int as n from staff_audit where staff_id = ${operator.staff.id}`)).toBe(
      before,
    );
    // An audit row that cannot be written (no e-mail to record): the claim is undone with it.
    const id = await write(member, persona(1).id, "Hello");
    const broken = { staff: { ...operator.staff, email: null as unknown as string }, address: "127.0.0.1" };
    await expect(operators.claim(broken, id)).rejects.toThrow();
    expect(await sqlCount(db(), sql`select count(*)::int as n from operator_claims where conversation_id = ${id}`)).toBe(0);
    await expect(operators.claim(actor, id)).resolves.toMatchObject({ conversation_id: id });
    // The send itself refuses a "persona" that is not fictional (a member cannot be written as, for free).
    const other = await createMember(context.app, { activate: true, gender: "male", credits: 0 });
    const asMember = () =>
      db().transaction((tx) =>
        context.app.services.chat.sendAsPersona(
          tx,
          { userId: other.userId, profileId: other.profileId },
          { profileId: member.profileId },
          randomUUID(),
          { text: "Free?" },
          { maxLength: 1000 },
        ),
      );
    await expect(asMember()).rejects.toMatchObject({ code: "not_found" });
    expect(await sqlCount(db(), sql`select count(*)::int as n from messages where sender_id = ${other.profileId}`)).toBe(0);
    expect(await sqlCount(db(), sql`select count(*)::int as n from operator_claims where conversation_id = ${id}`)).toBe(1);
  });
});

describe("the conversation view, notes and persona actions", () => {
  it("shows both profiles, the history as the persona sees it, its earlier lines elsewhere, and the pair's note", async () => {
    const operator = await staffLogin(context.app, "operator");
    const ann = await createMember(context.app, { activate: true, gender: "female", credits: 100 });
    const ben = await createMember(context.app, { activate: true, gender: "male", credits: 100 });
    const withAnn = await write(ann, persona(0).id, "Hi from Ann");
    await operator.client.post(`/staff/api/inbox/${withAnn}/claim`);
    await operator.client.post(`/staff/api/inbox/${withAnn}/answer`, { client_id: randomUUID(), text: "I love sailing" });
    const withBen = await write(ben, persona(0).id, "Hi from Ben");

    const note = await operator.client.put(`/staff/api/inbox/${withBen}/note`, { text: "Ben: likes dogs" });
    expect(note.statusCode, note.body).toBe(200);
    const view = (await operator.client.get(`/staff/api/inbox/${withBen}`)).json();
    expect(view.persona).toMatchObject({ id: persona(0).id });
    expect(view.member).toMatchObject({ id: ben.profileId });
    expect(view.history.map((m: { text: string; from_me: boolean }) => [m.text, m.from_me])).toEqual([["Hi from Ben", false]]);
    expect(view.earlier.map((l: { text: string }) => l.text)).toContain("I love sailing");
    expect(view.note).toMatchObject({ text: "Ben: likes dogs", staff_id: operator.staff.id });
    // The note is the pair's: Ann's conversation with the same persona has none.
    expect((await operator.client.get(`/staff/api/inbox/${withAnn}`)).json().note).toBeNull();
    // Too long: 422, unchanged.
    const tooLong = await operator.client.put(`/staff/api/inbox/${withBen}/note`, { text: "x".repeat(5000) });
    expect(tooLong.statusCode).toBe(422);
    expect((await operator.client.get(`/staff/api/inbox/${withBen}`)).json().note.text).toBe("Ben: likes dogs");
    const audit = await sqlRows<{ before: unknown; after: unknown }>(
      db(),
      sql`select before, after from staff_audit where action = 'inbox.note' and object_id = ${String(withBen)}`,
    );
    expect(audit).toEqual([{ before: null, after: { text: "Ben: likes dogs" } }]);
  });

  it("serves the persona's photos offered to send to staff only, private ones included, for that conversation's persona", async () => {
    const operator = await staffLogin(context.app, "operator");
    const member = await createMember(context.app, { activate: true, gender: "male", credits: 100 });
    // A fictional profile's photo that is not its main one, made private: a visitor of /cdn never gets it.
    const [shown] = await sqlRows<{ id: number; profile_id: number }>(
      db(),
      sql`select p.id, p.profile_id from photos p join profiles f on f.id = p.profile_id
          where f.fictional and p.status = 'active' and not p.is_main order by p.id limit 1`,
    );
    if (!shown) throw new Error("the seed has no fictional profile with a second photo");
    await db().execute(sql`update photos set private = true where id = ${shown.id}`);
    const personaId = Number(shown.profile_id);
    const photoId = Number(shown.id);
    const id = await write(member, personaId, "Hi there");
    const elsewhere = await write(member, personas.find((p) => p.id !== personaId)?.id ?? 0, "Hi again");

    const view = (await operator.client.get(`/staff/api/inbox/${id}`)).json();
    const offered = view.persona.photos.find((p: { id: number }) => p.id === photoId);
    expect(offered).toEqual({ id: photoId, thumb_url: `/staff/api/inbox/${id}/persona-photos/${photoId}.jpg` });
    const served = await operator.client.get(offered.thumb_url);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/jpeg");
    expect(served.headers["cache-control"]).toBe("private, no-store");
    expect(served.rawPayload.equals((await context.app.services.photos.bytesOf(photoId, "thumb")) as Buffer)).toBe(true);

    // A member, a visitor, another conversation, another profile's photo, a name that is no photo's: 404.
    expect((await member.client.get(offered.thumb_url)).statusCode).toBe(404);
    expect((await new TestClient(context.app.server).get(offered.thumb_url)).statusCode).toBe(404);
    expect((await operator.client.get(`/staff/api/inbox/${elsewhere}/persona-photos/${photoId}.jpg`)).statusCode).toBe(404);
    const foreign = await sqlCount(db(), sql`select id as n from photos where profile_id <> ${personaId} order by id limit 1`);
    expect((await operator.client.get(`/staff/api/inbox/${id}/persona-photos/${foreign}.jpg`)).statusCode).toBe(404);
    expect((await operator.client.get(`/staff/api/inbox/${id}/persona-photos/x${photoId}.jpg`)).statusCode).toBe(404);
  });

  it("sends a like and a first message from a persona, audited; refuses a profile that is not fictional", async () => {
    const operator = await staffLogin(context.app, "operator");
    const member = await createMember(context.app, { activate: true, gender: "male", credits: 100 });
    const other = await createMember(context.app, { activate: true, gender: "female", credits: 100 });
    const like = await operator.client.post("/staff/api/inbox/persona/like", {
      persona_id: persona(1).id,
      member_id: member.profileId,
    });
    expect(like.statusCode, like.body).toBe(200);
    expect(like.json()).toEqual({ member_id: member.profileId, state: "liked" });
    expect((await member.client.get(`/api/member.php?id=${persona(1).id}`)).json()).toMatchObject({
      profile: { fictional: true },
      like: "received",
    });
    const message = await operator.client.post("/staff/api/inbox/persona/message", {
      persona_id: persona(1).id,
      member_id: member.profileId,
      client_id: randomUUID(),
      text: "Hey, saw your profile!",
    });
    expect(message.statusCode, message.body).toBe(200);
    const list = (await member.client.get("/api/chats.php")).json();
    expect(JSON.stringify(list)).toContain("Hey, saw your profile!");
    expect(await auditCount("inbox.like", member.profileId)).toBe(1);
    expect(await auditCount("inbox.first_message", message.json().conversation_id)).toBe(1);
    const notFictional = await operator.client.post("/staff/api/inbox/persona/like", {
      persona_id: other.profileId,
      member_id: member.profileId,
    });
    expect(notFictional.statusCode).toBe(404);
  });
});
