import { randomUUID } from "node:crypto";
import { type PushPayload, pushPayloadSchema, userResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobRunner } from "../../platform/jobs.ts";
import { mailOutbox } from "../../platform/mail-outbox.schema.ts";
import { addPhoto, createMember, type MemberOptions, sqlCount, sqlRows, type TestMember } from "../../test/factories.ts";
import { type TestApp, useTestApp } from "../../test/harness.ts";
import { connectSocket } from "../../test/sockets.ts";
import { LOOKING_TTL_MS, Presence, SEEN_WINDOW_MS } from "./presence.ts";
import { NOTIFY_RULES, NotificationService } from "./service.ts";
import { UnsubscribeTokens } from "./tokens.ts";

const SECRET = "mail-events-secret-for-tests";
let app: TestApp;

useTestApp({ seed: { profiles: 0 }, timeout: 120_000, env: { MAIL_EVENTS_SECRET: SECRET } }, (context) => {
  ({ app } = context);
});

const db = () => app.services.database.db;

/** A member whose address is confirmed (notifications go to confirmed, real accounts only). */
async function member(options: MemberOptions = {}): Promise<TestMember> {
  const created = await createMember(app, { activate: true, credits: 200, ...options });
  await db().execute(sql`update users set status = 'active' where id = ${created.userId}`);
  return created;
}

async function say(from: TestMember, to: TestMember, text = "Hello") {
  const response = await from.client.post("/api/message.php", { client_id: randomUUID(), profile_id: to.profileId, text });
  expect(response.statusCode, response.body).toBe(200);
}

/** Runs the drain and every job due now (what the nodes' runners do every few seconds). */
async function runJobs(target: TestApp = app) {
  await target.services.notifications.drainAll();
  await target.services.jobs.runAllDue();
}

/** Jobs for later (batched e-mails, fallbacks) become due now, as if their time had come. */
async function fastForward() {
  await db().execute(sql`update jobs set run_at = now() where state = 'pending' and name like 'notifications.%'`);
  await runJobs();
}

/** The notification e-mails to a member (not the signup's confirmation): those with List-Unsubscribe. */
const mailsTo = (m: TestMember) =>
  db()
    .select()
    .from(mailOutbox)
    .where(sql`${mailOutbox.to} = ${m.email} and ${mailOutbox.headers} ? 'List-Unsubscribe'`)
    .orderBy(mailOutbox.id);

/** The notifications service on a job runner whose clock the test moves (as jobs.test.ts does). */
function clockedService(clock: () => Date) {
  const runner = new JobRunner(db(), { clock });
  const { services } = app;
  const service = new NotificationService({
    db: db(),
    jobs: runner,
    mailer: services.mailer,
    push: { hasDevices: async () => false, send: async () => 0 },
    presence: services.presence,
    tokens: new UnsubscribeTokens(db(), undefined),
    accounts: services.accounts,
    profiles: services.profiles,
    chat: services.chat,
    likes: services.likes,
    search: services.search,
    site: {
      name: async () => "Amoria",
      origin: async () => "http://localhost",
      settings: (l) => services.site.settingsFor("", l),
    },
    clock,
    log: { error: () => {} },
  });
  service.schedule();
  return { runner, service };
}

beforeEach(async () => {
  // Each test starts with an empty queue of notification jobs (previous tests' batched ones removed).
  await runJobs();
  await db().execute(sql`delete from jobs where name like 'notifications.%' and state = 'pending'`);
});

describe("messages", () => {
  it("e-mails a new conversation at once, with List-Unsubscribe (RFC 8058), and batches later messages (3 → 1 saying 3)", async () => {
    const ann = await member({ gender: "female", name: "Ann" });
    const ben = await member({ gender: "male", name: "Ben" });
    await say(ann, ben, "Hi Ben");
    await runJobs();
    const first = await mailsTo(ben);
    expect(first).toHaveLength(1);
    expect(first[0]?.subject).toBe("Ann sent you a message on Amoria");
    expect(first[0]?.text).toContain("You have 1 unread message from Ann.");
    expect(first[0]?.text).toContain("/notifications");
    const headers = first[0]?.headers as Record<string, string>;
    expect(headers["List-Unsubscribe"]).toMatch(/^<http:\/\/.+\/api\/unsubscribe\.php\?token=[^>]+>$/);
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    // The sender's own tabs got the message too: the sender is never notified.
    expect(await mailsTo(ann)).toHaveLength(0);

    for (const text of ["one", "two", "three"]) await say(ann, ben, text);
    await runJobs();
    expect(await mailsTo(ben)).toHaveLength(1); // the quiet period holds the batch
    await fastForward();
    const mails = await mailsTo(ben);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toBe("4 new messages from Ann");
    expect(mails[1]?.text).toContain("There are 4 unread messages in your conversation with Ann.");
  });

  it("3 messages before the first e-mail → 1 e-mail saying 3, in the member's language", async () => {
    const ann = await member({ gender: "female", name: "Ann" });
    const ben = await member({ gender: "male", name: "Ben", locale: "de" });
    await db().execute(sql`update users set language = 'de' where id = ${ben.userId}`);
    for (const text of ["a", "b", "c"]) await say(ann, ben, text);
    await runJobs();
    await fastForward();
    const mails = await mailsTo(ben);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("Du hast 3 ungelesene Nachrichten von Ann.");
  });

  it("sends nothing when the message was read before the batch went out", async () => {
    const ann = await member({ gender: "female" });
    const ben = await member({ gender: "male" });
    await say(ann, ben);
    await runJobs();
    await say(ann, ben, "again");
    await runJobs();
    const [conversation] = await sqlRows<{ id: number }>(
      db(),
      sql`select conversation_id as id from conversation_members where profile_id = ${ben.profileId}`,
    );
    const read = await ben.client.get(`/api/chat.php?id=${conversation?.id}`);
    expect(read.statusCode).toBe(200);
    await fastForward();
    expect(await mailsTo(ben)).toHaveLength(1);
  });

  it("a member who is looking gets nothing; after page-hidden they get the e-mail", async () => {
    const ann = await member({ gender: "female" });
    const ben = await member({ gender: "male" });
    const socket = await connectSocket(app, { cookie: ben.client.cookieHeader() });
    await socket.next((f) => f.type === "hello");
    await expect.poll(() => app.services.presence.isLooking(ben.userId)).toBe(true);
    await say(ann, ben);
    await runJobs();
    await fastForward();
    expect(await mailsTo(ben)).toHaveLength(0);

    const hidden = await ben.client.post("/api/page-hidden.php", {});
    expect(hidden.json()).toEqual({ ok: true });
    expect(await app.services.presence.isLooking(ben.userId)).toBe(false);
    await say(ann, ben, "are you there?");
    await runJobs();
    await fastForward();
    const mails = await mailsTo(ben);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("2 unread messages");

    // A new socket is presence again; its close (the member's last socket) ends it.
    socket.socket.close();
    const again = await connectSocket(app, { cookie: ben.client.cookieHeader() });
    await again.next((f) => f.type === "hello");
    await expect.poll(() => app.services.presence.isLooking(ben.userId)).toBe(true);
    again.socket.close();
    await expect.poll(() => app.services.presence.isLooking(ben.userId)).toBe(false);
  });

  it("a visible page's poll of the user marks the member as looking; a hidden page's does not", async () => {
    const ben = await member({ gender: "male" });
    await ben.client.post("/api/page-hidden.php", {});
    await ben.client.request("GET", "/api/user.php", undefined, { "x-page-visibility": "hidden" });
    expect(await app.services.presence.isLooking(ben.userId)).toBe(false);
    await ben.client.request("GET", "/api/user.php", undefined, { "x-page-visibility": "visible" });
    await expect.poll(() => app.services.presence.isLooking(ben.userId)).toBe(true);
  });

  it("presence: pings extend it only while it holds and within 10 min of the member's own last sign", async () => {
    const ben = await member({ gender: "male" });
    const start = Date.now();
    let now = new Date(start);
    const presence = new Presence(db(), () => now);
    const at = (minutes: number) => {
      now = new Date(start + minutes * 60_000);
    };
    await presence.here(ben.userId);
    for (const minute of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      at(minute);
      await presence.stillHere(ben.userId);
    }
    at(10.5);
    expect(await presence.isLooking(ben.userId)).toBe(true);
    await presence.stillHere(ben.userId); // more than 10 min after the last own sign: no longer extended
    at(11.5);
    expect(await presence.isLooking(ben.userId)).toBe(false);
    // Away (page hidden): a ping does not bring it back; an own sign does.
    await presence.here(ben.userId);
    await presence.away(ben.userId);
    await presence.stillHere(ben.userId);
    expect(await presence.isLooking(ben.userId)).toBe(false);
    await presence.here(ben.userId);
    expect(await presence.isLooking(ben.userId)).toBe(true);
    expect(LOOKING_TTL_MS).toBe(120_000);
    expect(SEEN_WINDOW_MS).toBe(600_000);
  });

  it("page-hidden answers ok for a visitor too", async () => {
    const visitor = await app.server.inject({ method: "POST", url: "/api/page-hidden.php", payload: {} });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({ ok: true });
  });

  it("respects the categories: new_conversations off → no e-mail for a first message; new_messages off → none for later ones", async () => {
    const ann = await member({ gender: "female" });
    const ben = await member({ gender: "male" });
    await ben.client.put("/api/notifications.php", { enabled: { new_conversations: false } });
    await say(ann, ben);
    await runJobs();
    await fastForward();
    expect(await mailsTo(ben)).toHaveLength(0);
    await ben.client.put("/api/notifications.php", { enabled: { new_conversations: true, new_messages: false } });
    await say(ann, ben, "later");
    await runJobs();
    await fastForward();
    expect(await mailsTo(ben)).toHaveLength(0);
    await ben.client.put("/api/notifications.php", { enabled: { new_messages: true } });
    await say(ann, ben, "and now");
    await runJobs();
    await fastForward();
    expect(await mailsTo(ben)).toHaveLength(1);
  });

  it("sends a member at most 6 notification e-mails an hour; the 7th waits until the hour has room", async () => {
    const ben = await member({ gender: "male" });
    for (let i = 0; i < NOTIFY_RULES.mailsPerHour + 1; i++) await say(await member({ gender: "female" }), ben);
    await runJobs();
    expect(await mailsTo(ben)).toHaveLength(NOTIFY_RULES.mailsPerHour);
    const [waiting] = await sqlRows<{ run_at: string }>(
      db(),
      sql`select run_at from jobs where name = 'notifications.email' and state = 'pending' and (payload->>'userId')::int = ${ben.userId}`,
    );
    expect(new Date(String(waiting?.run_at)).getTime() - Date.now()).toBeGreaterThan(59 * 60_000);
  });

  it("a fictional profile (persona) gets nothing", async () => {
    const ann = await member({ gender: "female" });
    const persona = await member({ gender: "male" });
    await db().execute(sql`update users set fictional = true where id = ${persona.userId}`);
    await db().execute(sql`update profiles set fictional = true where id = ${persona.profileId}`);
    await say(ann, persona);
    await runJobs();
    await fastForward();
    expect(await mailsTo(persona)).toHaveLength(0);
    expect(await sqlCount(db(), sql`select count(*)::int as n from notifications where user_id = ${persona.userId}`)).toBe(0);
  });
});

describe("likes and matches", () => {
  it("batches likes into one e-mail an hour with the count; a match is e-mailed at once; the like category switches both off", async () => {
    const ben = await member({ gender: "male", name: "Ben" });
    const ann = await member({ gender: "female", name: "Ann" });
    const cat = await member({ gender: "female", name: "Cat" });
    await ann.client.post("/api/like.php", { id: ben.profileId });
    await cat.client.post("/api/like.php", { id: ben.profileId });
    await runJobs();
    expect(await mailsTo(ben)).toHaveLength(0);
    const [job] = await sqlRows<{ run_at: string }>(
      db(),
      sql`select run_at from jobs where name = 'notifications.email' and state = 'pending' and key = ${`likes:${ben.userId}`}`,
    );
    expect(new Date(String(job?.run_at)).getTime() - Date.now()).toBeGreaterThan(NOTIFY_RULES.likesBatchMs - 60_000);
    await fastForward();
    const likes = await mailsTo(ben);
    expect(likes).toHaveLength(1);
    expect(likes[0]?.subject).toBe("2 members like you on Amoria");

    // Ben likes Ann back: a match. Ann (who did not make it) is told; Ben (who did) is not.
    await ben.client.post("/api/like.php", { id: ann.profileId });
    await runJobs();
    const match = await mailsTo(ann);
    expect(match.map((m) => m.subject)).toContain("It's a match: you and Ben");
    expect((await mailsTo(ben)).length).toBe(1);

    await cat.client.put("/api/notifications.php", { enabled: { like: false } });
    await ben.client.post("/api/like.php", { id: cat.profileId });
    await runJobs();
    await fastForward();
    expect(await mailsTo(cat)).toHaveLength(0);
  });
});

describe("periodic e-mails with a controllable clock", () => {
  it("reminds of messages unread for more than a day, once per unread batch; reminders for inactive members once", async () => {
    const ann = await member({ gender: "female", name: "Ann" });
    const ben = await member({ gender: "male", name: "Ben" });
    // Ben reads his mail only: he is away, and is sent the first-message e-mail.
    await say(ann, ben);
    await runJobs();
    expect(await mailsTo(ben)).toHaveLength(1);

    let now = new Date(Date.now() + 25 * 3_600_000);
    const clock = () => now;
    const { runner } = clockedService(clock);
    // The daily reminder's period comes: one reminder, saying 1 unread message.
    await runner.runAllDue();
    let mails = await mailsTo(ben);
    expect(mails.map((m) => m.subject)).toContain("A message is waiting for you on Amoria");
    const reminders = () => mailsTo(ben).then((all) => all.filter((m) => m.subject.includes("waiting")).length);
    expect(await reminders()).toBe(1);
    // The next day, the same unread batch: no second reminder.
    now = new Date(now.getTime() + 24 * 3_600_000);
    await runner.runAllDue();
    expect(await reminders()).toBe(1);

    // 15 days without a visit: a reminder of the site, once.
    now = new Date(Date.now() + 15 * 24 * 3_600_000);
    await runner.runAllDue();
    mails = await mailsTo(ben);
    expect(mails.filter((m) => m.subject === "We miss you on Amoria")).toHaveLength(1);
    now = new Date(now.getTime() + 24 * 3_600_000);
    await runner.runAllDue();
    expect((await mailsTo(ben)).filter((m) => m.subject === "We miss you on Amoria")).toHaveLength(1);
    // Switched off: no more reminders.
    await ben.client.put("/api/notifications.php", { enabled: { reminders: false, unread_message_reminders: false } });
    await db().execute(sql`update sessions set last_seen_at = now() - interval '40 days' where user_id = ${ben.userId}`);
    now = new Date(now.getTime() + 24 * 3_600_000);
    await runner.runAllDue();
    expect((await mailsTo(ben)).filter((m) => m.subject === "We miss you on Amoria")).toHaveLength(1);
  });

  it("e-mails weekly updates with new members near the member, once a week, and not with the category off", async () => {
    const ben = await member({ gender: "male", name: "Ben" });
    const zoe = await member({ gender: "female", name: "Zoe" });
    await addPhoto(app, zoe.profileId, { main: true });
    const skip = await member({ gender: "male", name: "Sam" });
    await skip.client.put("/api/notifications.php", { enabled: { weekly_updates: false } });
    let now = new Date(Date.now() + 60 * 24 * 3_600_000);
    const { runner } = clockedService(() => now);
    await runner.runAllDue();
    const weekly = (m: TestMember) =>
      mailsTo(m).then((all) => all.filter((mail) => mail.subject === "New members near you on Amoria"));
    const [mail] = await weekly(ben);
    expect(mail?.text).toContain("Zoe");
    expect(mail?.text).toContain("/match-finder");
    expect(await weekly(skip)).toHaveLength(0);
    // Later the same week: nothing more.
    now = new Date(now.getTime() + 3_600_000);
    await runner.runAllDue();
    expect(await weekly(ben)).toHaveLength(1);
  });

  it("sends news to members with the category on, and promotions only to those who agreed to them", async () => {
    const ann = await member({ gender: "female" });
    const ben = await member({ gender: "male" });
    const cat = await member({ gender: "female" });
    // Ann agrees to promotions and turns news off; Ben leaves both as they came (promotions off); Cat agreed
    // and changed her mind.
    await ann.client.put("/api/notifications.php", { enabled: { news: false, promotions: true } });
    await cat.client.put("/api/notifications.php", { enabled: { promotions: true } });
    await cat.client.put("/api/notifications.php", { enabled: { promotions: false } });
    const news = { category: "news", id: `news-${randomUUID()}`, title: "Video chat is here", text: "Try it now." } as const;
    await app.services.notifications.broadcast(news);
    // The same broadcast again reaches nobody twice.
    await app.services.notifications.broadcast(news);
    await app.services.notifications.broadcast({
      category: "promotions",
      id: `promo-${randomUUID()}`,
      title: "50% more credits",
      text: "This weekend only.",
    });
    await runJobs();
    await app.services.notifications.broadcast(news);
    await runJobs();
    expect((await mailsTo(ann)).map((m) => m.subject)).toEqual(["50% more credits"]);
    expect((await mailsTo(ben)).map((m) => m.subject)).toEqual(["Video chat is here"]);
    expect((await mailsTo(cat)).map((m) => m.subject)).toEqual(["Video chat is here"]);
  });
});

describe("one-click unsubscribe", () => {
  it("turns the e-mail's category off with reason listunsubscribe (form POST, idempotent); a forged token is 422", async () => {
    const ann = await member({ gender: "female" });
    const ben = await member({ gender: "male" });
    await say(ann, ben);
    await runJobs();
    const [mail] = await mailsTo(ben);
    const url = new URL(String((mail?.headers as Record<string, string> | undefined)?.["List-Unsubscribe"]).slice(1, -1));
    for (let i = 0; i < 2; i++) {
      const response = await app.server.inject({
        method: "POST",
        url: `${url.pathname}${url.search}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "List-Unsubscribe=One-Click",
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true, category: "new_conversations" });
    }
    const empty = await app.server.inject({ method: "POST", url: `${url.pathname}${url.search}` });
    expect(empty.statusCode, empty.body).toBe(200);
    const multipart = await app.server.inject({
      method: "POST",
      url: `${url.pathname}${url.search}`,
      headers: { "content-type": "multipart/form-data; boundary=x" },
      payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
    });
    expect(multipart.statusCode, multipart.body).toBe(200);
    const user = userResponseSchema.parse((await ben.client.get("/api/user.php")).json()).user;
    expect(user?.notifications_disabled).toEqual([{ category: "new_conversations", reason: "listunsubscribe" }]);

    const token = url.searchParams.get("token") ?? "";
    const forged = token.replace(/^\d+/, String(ann.userId));
    const refused = await app.server.inject({
      method: "POST",
      url: `/api/unsubscribe.php?token=${encodeURIComponent(forged)}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe("unsubscribe_token_invalid");
    const annUser = userResponseSchema.parse((await ann.client.get("/api/user.php")).json()).user;
    expect(annUser?.notifications_disabled).toEqual([]);
  });
});

describe("bounces and complaints", () => {
  const hook = (payload: unknown, authorization = `Bearer ${SECRET}`) =>
    app.server.inject({
      method: "POST",
      url: "/hooks/mail-events",
      headers: { "content-type": "application/json", authorization },
      payload: JSON.stringify(payload),
    });
  const disabledOf = async (m: TestMember) =>
    userResponseSchema.parse((await m.client.get("/api/user.php")).json()).user?.notifications_disabled;

  it("our shape: a hard bounce → every category off with bounce; a complaint → fbl; unknown addresses ignored", async () => {
    const ann = await member();
    const ben = await member();
    const response = await hook({
      events: [
        { type: "bounce", email: ann.email, permanent: true },
        { type: "complaint", email: ben.email.toUpperCase() },
        { type: "bounce", email: "nobody@example.org" },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await disabledOf(ann))?.map((d) => d.reason)).toEqual(Array(8).fill("bounce"));
    expect((await disabledOf(ben))?.map((d) => d.reason)).toEqual(Array(8).fill("fbl"));
    // A soft bounce changes nothing.
    const cat = await member();
    await hook({ events: [{ type: "bounce", email: cat.email, permanent: false }] });
    expect(await disabledOf(cat)).toEqual([]);
  });

  it("SendGrid's shape (basic auth): bounce and spamreport", async () => {
    const ann = await member();
    const ben = await member();
    const basic = `Basic ${Buffer.from(`mail:${SECRET}`).toString("base64")}`;
    const response = await hook(
      [
        { email: ann.email, event: "bounce", type: "bounce", timestamp: 1 },
        { email: ben.email, event: "spamreport", timestamp: 2 },
        { email: ben.email, event: "delivered", timestamp: 3 },
      ],
      basic,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect((await disabledOf(ann))?.[0]).toEqual({ category: "new_conversations", reason: "bounce" });
    expect((await disabledOf(ben))?.[0]).toEqual({ category: "new_conversations", reason: "fbl" });
  });

  it("Postmark's shape: a hard bounce and a spam complaint", async () => {
    const ann = await member();
    const ben = await member();
    expect((await hook({ RecordType: "Bounce", Type: "HardBounce", Email: ann.email, ID: 1 })).statusCode).toBe(200);
    expect((await hook({ RecordType: "SpamComplaint", Email: ben.email, ID: 2 })).statusCode).toBe(200);
    expect((await disabledOf(ann))?.every((d) => d.reason === "bounce")).toBe(true);
    expect((await disabledOf(ben))?.every((d) => d.reason === "fbl")).toBe(true);
  });

  it("refuses a bad shape (422) and a wrong secret (401)", async () => {
    expect((await hook({ events: [{ type: "opened", email: "x@example.org" }] })).statusCode).toBe(422);
    expect((await hook("not json")).statusCode).toBe(422);
    expect((await hook({ events: [] }, "Bearer wrong")).statusCode).toBe(401);
    expect((await hook({ events: [] }, "")).statusCode).toBe(401);
  });
});

describe("erasure", () => {
  it("an erased account's notifications and presence go with it", async () => {
    const ann = await member({ gender: "female" });
    const ben = await member({ gender: "male" });
    await say(ann, ben);
    await runJobs();
    await ben.client.post("/api/page-hidden.php", {});
    const rows = () =>
      sqlCount(
        db(),
        sql`select (select count(*) from notifications where user_id = ${ben.userId}) + (select count(*) from member_presence where user_id = ${ben.userId}) as n`,
      );
    expect(await rows()).toBeGreaterThan(0);
    await db().execute(
      sql`update users set status = 'pending_deletion', deletion_requested_at = now() - interval '15 days' where id = ${ben.userId}`,
    );
    expect(await app.services.accounts.purgeExpiredDeletions()).toBeGreaterThanOrEqual(1);
    expect(await rows()).toBe(0);
  });
});

describe("push clicks", () => {
  it("records a click on the member's own push notification only (404 otherwise)", async () => {
    const ann = await member();
    const ben = await member();
    const [row] = await sqlRows<{ id: number }>(
      db(),
      sql`insert into notifications (user_id, kind, channel, key, sent_at) values (${ben.userId}, 'message', 'push', ${`test:${randomUUID()}`}, now()) returning id`,
    );
    expect((await ann.client.post("/api/push-click.php", { notification_id: row?.id })).statusCode).toBe(404);
    expect((await ben.client.post("/api/push-click.php", { notification_id: row?.id })).json()).toEqual({ ok: true });
    expect(
      await sqlCount(db(), sql`select count(*)::int as n from notifications where id = ${row?.id} and clicked_at is not null`),
    ).toBe(1);
  });
});

describe("push first (a stand-in PushSender until modules/push is wired)", () => {
  const sent: Array<{ userId: number; payload: PushPayload }> = [];
  let devices = true;
  let accepting = 1;
  beforeEach(() => {
    sent.length = 0;
    devices = true;
    accepting = 1;
    app.services.notifications.usePush({
      hasDevices: async () => devices,
      send: async (userId, payload) => {
        sent.push({ userId, payload: pushPayloadSchema.parse(payload) });
        return accepting;
      },
    });
  });
  afterEach(() => app.services.notifications.usePush({ hasDevices: async () => false, send: async () => 0 }));

  it("pushes a message to an away member; the e-mail follows 15 min later unless the push was clicked", async () => {
    const ann = await member({ gender: "female", name: "Ann" });
    const ben = await member({ gender: "male", name: "Ben" });
    await say(ann, ben);
    await runJobs();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      userId: ben.userId,
      payload: {
        kind: "message",
        title: "New message from Ann",
        body: "1 unread message",
        url: `/members/${ann.profileId}/chat`,
      },
    });
    expect(await mailsTo(ben)).toHaveLength(0);
    const [fallback] = await sqlRows<{ run_at: string }>(
      db(),
      sql`select run_at from jobs where name = 'notifications.email' and state = 'pending' and key like ${`conversation:${ben.userId}:%`}`,
    );
    expect(new Date(String(fallback?.run_at)).getTime() - Date.now()).toBeGreaterThan(NOTIFY_RULES.pushFallbackMs - 60_000);
    // Not clicked, still unread: the e-mail goes.
    await fastForward();
    expect(await mailsTo(ben)).toHaveLength(1);

    // Clicked: no e-mail.
    const cat = await member({ gender: "female", name: "Cat" });
    await say(cat, ben);
    await runJobs();
    const id = sent.at(-1)?.payload.notification_id;
    expect((await ben.client.post("/api/push-click.php", { notification_id: id })).json()).toEqual({ ok: true });
    await fastForward();
    expect(await mailsTo(ben)).toHaveLength(1);
  });

  it("a message push that no device takes is e-mailed at once, and the later fallback does not repeat it", async () => {
    const ann = await member({ gender: "female", name: "Ann" });
    const ben = await member({ gender: "male", name: "Ben" });
    accepting = 0;
    await say(ann, ben);
    await runJobs();
    expect(sent).toHaveLength(1);
    expect((await mailsTo(ben)).map((m) => m.subject)).toEqual(["Ann sent you a message on Amoria"]);
    await fastForward();
    expect(await mailsTo(ben)).toHaveLength(1);
  });

  it("a category the member switched off gets no push; likes with devices are pushed, and e-mailed when no device takes the push", async () => {
    const ann = await member({ gender: "female", name: "Ann" });
    const ben = await member({ gender: "male", name: "Ben" });
    await ben.client.put("/api/notifications.php", { enabled: { new_conversations: false } });
    await say(ann, ben);
    await runJobs();
    expect(sent).toHaveLength(0);

    await ann.client.post("/api/like.php", { id: ben.profileId });
    await runJobs();
    expect(sent.map((s) => s.payload)).toEqual([
      expect.objectContaining({ kind: "like", title: "Someone likes you", url: "/likes" }),
    ]);
    expect(await mailsTo(ben)).toHaveLength(0);

    accepting = 0;
    const cat = await member({ gender: "female", name: "Cat" });
    await cat.client.post("/api/like.php", { id: ben.profileId });
    await runJobs();
    await fastForward();
    expect((await mailsTo(ben)).map((m) => m.subject)).toEqual(["2 members like you on Amoria"]);
  });
});

describe("a decision that fails", () => {
  afterEach(() => app.services.notifications.usePush({ hasDevices: async () => false, send: async () => 0 }));

  it("keeps only its own queue row (leased, tried again later); the others are decided", async () => {
    const ann = await member({ gender: "female" });
    const ben = await member({ gender: "male" });
    const cat = await member({ gender: "male" });
    app.services.notifications.usePush({
      hasDevices: async (userId) => {
        if (userId === ben.userId) throw new Error("push store down");
        return false;
      },
      send: async () => 0,
    });
    await say(ann, ben);
    await say(ann, cat);
    await runJobs();
    expect(await mailsTo(cat)).toHaveLength(1);
    expect(await mailsTo(ben)).toHaveLength(0);
    expect(
      await sqlCount(
        db(),
        sql`select count(*)::int as n from notification_queue where user_id = ${ben.userId} and claimed_until > now()`,
      ),
    ).toBe(1);
    // The push store is back and the lease has run out: Ben's message is decided and e-mailed.
    app.services.notifications.usePush({ hasDevices: async () => false, send: async () => 0 });
    await db().execute(sql`update notification_queue set claimed_until = now() - interval '1 second'`);
    await runJobs();
    expect(await mailsTo(ben)).toHaveLength(1);
  });
});

describe("without MAIL_EVENTS_SECRET", () => {
  const other = useTestApp({ listen: false });
  it("the mail-events hook is not there (404)", async () => {
    const response = await other.app.server.inject({
      method: "POST",
      url: "/hooks/mail-events",
      headers: { "content-type": "application/json", authorization: `Bearer ${SECRET}` },
      payload: JSON.stringify({ events: [] }),
    });
    expect(response.statusCode).toBe(404);
  });
});
