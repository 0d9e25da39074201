import { randomUUID } from "node:crypto";
import { paymentCreateResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addPhoto, createMember, type MemberOptions, sqlRows, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { staffLogin } from "../../test/staff.ts";
import type { SandboxProvider } from "../payments/providers/sandbox.ts";
import type { SupportService } from "./service.ts";

let database: TestDatabase;
let app: TestApp;
let support: SupportService;
let sandbox: SandboxProvider;
let host: string;

useTestApp({ seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
  support = app.services.support;
  if (!app.services.sandbox) throw new Error("the sandbox provider is the default");
  sandbox = app.services.sandbox;
  host = new URL(app.url).host;
});

/** The default site's signup bonus. */
const SIGNUP_BONUS = 20;
/** A staff account id (the staff module's; support only keeps it beside the recorded reason). */
const STAFF = 7;
const OTHER_STAFF = 8;

const member = (options: MemberOptions = {}) => createMember(app, { activate: true, ...options });
const balanceOf = async (userId: number) => (await app.services.credits.account(database.db, userId)).credits;
const ledgerOf = (userId: number) =>
  sqlRows<{ delta: number; reason: string }>(
    database.db,
    sql`select delta, reason from credit_ledger where user_id = ${userId} order by id`,
  );

/** A paid purchase of bundle 1 (100 credits) on the sandbox, as the buyer's browser and the webhook make it. */
async function paidPurchase(buyer: TestMember): Promise<{ paymentId: number; providerId: string }> {
  const created = await buyer.client.post(
    "/api/payment.php",
    { bundle_id: 1, method: "ideal", client_id: randomUUID() },
    { host },
  );
  expect(created.statusCode, created.body).toBe(200);
  const paymentId = paymentCreateResponseSchema.parse(created.json()).payment_id;
  const [row] = await sqlRows<{ provider_id: string }>(
    database.db,
    sql`select provider_id from payments where id = ${paymentId}`,
  );
  const providerId = row?.provider_id ?? "";
  await sandbox.complete(providerId, "paid");
  await app.services.payments.sync("sandbox", providerId);
  expect(await sqlRows(database.db, sql`select 1 from payments where id = ${paymentId} and status = 'paid'`)).toHaveLength(1);
  return { paymentId, providerId };
}

const correct = (userId: number, delta: number, key = randomUUID()) =>
  database.db.transaction((tx) => support.correctCredits(tx, userId, { delta, key }));

describe("finding members", () => {
  it("finds a member by e-mail prefix, name prefix (any case), id and payment id", async () => {
    const tag = randomUUID().slice(0, 8);
    const anna = await member({ name: `Zanna${tag}`, email: `support-${tag}@example.org`, country: "NL" });
    await member({ name: `Zanna${tag}x`, email: `other-${tag}@example.org` });

    const byEmail = await support.search(`support-${tag}`);
    expect(byEmail.map((hit) => [hit.user_id, hit.matched])).toEqual([[anna.userId, "email"]]);
    expect(byEmail[0]).toMatchObject({ email: anna.email, name: `Zanna${tag}`, status: "not_confirmed", fictional: false });
    // The whole address, in other case and with spaces around it.
    expect((await support.search(`  SUPPORT-${tag}@EXAMPLE.ORG `)).map((hit) => hit.user_id)).toEqual([anna.userId]);

    const byName = await support.search(`zanna${tag.toUpperCase()}`);
    expect(byName.map((hit) => hit.matched)).toEqual(["name", "name"]);
    expect(byName[0]?.user_id).toBe(anna.userId);

    expect((await support.search(String(anna.userId))).find((hit) => hit.matched === "id")?.user_id).toBe(anna.userId);

    const { paymentId, providerId } = await paidPurchase(anna);
    expect((await support.search(providerId)).map((hit) => [hit.user_id, hit.matched])).toEqual([[anna.userId, "payment"]]);
    expect((await support.search(`#${paymentId}`)).map((hit) => [hit.user_id, hit.matched])).toEqual([[anna.userId, "payment"]]);

    // LIKE's own characters are taken literally; nothing unknown is found.
    expect(await support.search("%")).toEqual([]);
    expect(await support.search(`_upport-${tag}`)).toEqual([]);
    expect(await support.search("no-such-member-anywhere")).toEqual([]);
    expect(await support.search("   ")).toEqual([]);
  });

  it("reads the prefix and payment indexes, whatever the table's size (a bound pattern, as the search sends it)", async () => {
    const planOf = async (query: ReturnType<typeof sql>) =>
      database.db.transaction(async (tx) => {
        // Without other choice: a plan that cannot use an index falls back to a scan anyway.
        await tx.execute(sql`set local enable_seqscan = off`);
        // Nor a sort when the index can give the order (on a table this small the planner would sort).
        await tx.execute(sql`set local enable_sort = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        const rows = await sqlRows<{ "QUERY PLAN": string }>(tx, sql`explain ${query}`);
        return rows.map((row) => row["QUERY PLAN"]).join("\n");
      });
    const byEmail = await planOf(
      sql`select id from users where email collate "C" like ${"anna%"} order by email collate "C" limit 20`,
    );
    expect(byEmail).toContain("users_email_prefix");
    const byName = await planOf(
      sql`select user_id from profiles where lower(name) collate "C" like ${"anna%"} order by lower(name) collate "C" limit 20`,
    );
    expect(byName).toContain("profiles_name_prefix");
    // Read in the index's order: the first 20 matches, never every match sorted.
    expect(`${byEmail}\n${byName}`).not.toMatch(/\bSort\b/);
    expect(await planOf(sql`select user_id from payments where provider_id = ${"tr_x"}`)).toContain("payments_provider_ref");
  });
});

describe("the dossier", () => {
  it("shows account, profile, every photo (locked ones too), likes, ledger, payments and logins", async () => {
    const ben = await member({ name: "Ben", country: "NL" });
    const cleo = await member({ name: "Cleo", gender: "male" });
    await addPhoto(app, ben.profileId, { main: true });
    await addPhoto(app, ben.profileId, { private: true });
    await cleo.client.post("/api/like.php", { id: ben.profileId });
    // A login with the password, from a browser of its own.
    const login = await app.server.inject({
      method: "POST",
      url: "/api/user.php",
      headers: { "user-agent": "SupportTest/1.0", "content-type": "application/json" },
      payload: { email: ben.email, password: "correct horse battery" },
    });
    expect(login.statusCode, login.body).toBe(200);

    const dossier = await support.dossier(ben.userId, STAFF);
    expect(dossier.account).toMatchObject({ user_id: ben.userId, email: ben.email, status: "not_confirmed", language: "en" });
    expect(dossier.profile).toMatchObject({ profile_id: ben.profileId, name: "Ben", country: "NL" });
    expect(dossier.photos.map((photo) => photo.private).sort()).toEqual([false, true]);
    expect(dossier.photos.every((photo) => photo.url.startsWith("/staff/api/support/photos/"))).toBe(true);
    expect(dossier.likes.received).toEqual([
      expect.objectContaining({ profile_id: cleo.profileId, name: "Cleo", matched: false }),
    ]);
    expect(dossier.credits).toEqual({ balance: SIGNUP_BONUS, paid: false });
    expect(dossier.ledger).toEqual([expect.objectContaining({ delta: SIGNUP_BONUS, kind: "signup_bonus" })]);
    expect(dossier.payments).toEqual([]);
    expect(dossier.logins.map((l) => l.method)).toEqual(["password", "signup"]);
    expect(dossier.logins[0]).toMatchObject({ user_agent: "SupportTest/1.0", address: "127.0.0.1" });
    expect(dossier.conversations_open_until).toBeNull();

    await expect(support.dossier(2_000_000_000, STAFF)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("credit corrections", () => {
  it("adds and takes credits through the ledger, never below zero", async () => {
    const dana = await member();
    expect(await correct(dana.userId, 30)).toEqual({ before: SIGNUP_BONUS, balance: SIGNUP_BONUS + 30, replayed: false });
    expect(await correct(dana.userId, -50)).toEqual({ before: 50, balance: 0, replayed: false });
    await expect(correct(dana.userId, -1)).rejects.toMatchObject({ code: "correction_below_zero" });
    expect(await balanceOf(dana.userId)).toBe(0);
    expect((await ledgerOf(dana.userId)).slice(1)).toEqual([
      { delta: 30, reason: "correction" },
      { delta: -50, reason: "correction" },
    ]);
    await expect(correct(2_000_000_000, 5)).rejects.toMatchObject({ code: "not_found" });
  });

  it("corrects once per key, replayed or raced (a double click)", async () => {
    const eve = await member();
    const key = randomUUID();
    expect(await correct(eve.userId, 40, key)).toMatchObject({ balance: 60, replayed: false });
    expect(await correct(eve.userId, 40, key)).toMatchObject({ balance: 60, replayed: true });

    const raceKey = randomUUID();
    const raced = await Promise.all(Array.from({ length: 6 }, () => correct(eve.userId, -25, raceKey)));
    expect(raced.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await balanceOf(eve.userId)).toBe(35);

    // Different keys racing for more than the balance: some are refused, the balance stays >= 0.
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => correct(eve.userId, -10)));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(3);
    expect(outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(
      Array(3).fill("correction_below_zero"),
    );
    expect(await balanceOf(eve.userId)).toBe(5);
    const ledger = await ledgerOf(eve.userId);
    expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(5);
  });
});

describe("refunds", () => {
  const refund = async (paymentId: number) => {
    const reserved = await database.db.transaction((tx) => support.reserveRefund(tx, paymentId));
    if (reserved.replayed) return { reserved, payment: reserved.payment };
    return { reserved, payment: await support.sendRefund(reserved) };
  };

  it("refunds an unspent bundle at the provider and takes its credits back", async () => {
    const fay = await member({ country: "NL" });
    const { paymentId, providerId } = await paidPurchase(fay);
    expect(await balanceOf(fay.userId)).toBe(SIGNUP_BONUS + 100);
    const { reserved, payment } = await refund(paymentId);
    expect(reserved).toMatchObject({ taken: 100, spent: 0, balance: SIGNUP_BONUS, replayed: false });
    expect(payment.status).toBe("refunded");
    expect(await balanceOf(fay.userId)).toBe(SIGNUP_BONUS);
    const [atProvider] = await sqlRows<{ refunded_cents: number; amount_cents: number }>(
      database.db,
      sql`select refunded_cents, amount_cents from sandbox_payments where id = ${providerId}`,
    );
    expect(atProvider?.refunded_cents).toBe(atProvider?.amount_cents);
    // A second click changes nothing; the provider's webhook takes nothing more.
    expect((await refund(paymentId)).reserved).toMatchObject({ taken: 0, replayed: true });
    await app.services.payments.sync("sandbox", providerId);
    expect(await balanceOf(fay.userId)).toBe(SIGNUP_BONUS);
    expect((await ledgerOf(fay.userId)).filter((row) => row.reason === "refund")).toEqual([{ delta: -100, reason: "refund" }]);
  });

  it("refunds once when two refunds of the same payment race (a double click on two tabs)", async () => {
    const ivo = await member({ country: "NL" });
    const { paymentId, providerId } = await paidPurchase(ivo);
    const raced = await Promise.all([refund(paymentId), refund(paymentId), refund(paymentId)]);
    expect(raced.filter((r) => !r.reserved.replayed)).toHaveLength(1);
    expect(raced.reduce((sum, r) => sum + r.reserved.taken, 0)).toBe(100);
    expect(await balanceOf(ivo.userId)).toBe(SIGNUP_BONUS);
    const [atProvider] = await sqlRows<{ refunded_cents: number; amount_cents: number }>(
      database.db,
      sql`select refunded_cents, amount_cents from sandbox_payments where id = ${providerId}`,
    );
    expect(atProvider?.refunded_cents).toBe(atProvider?.amount_cents);
  });

  it("takes back what is left of a partly spent bundle, never below zero, and flags the member", async () => {
    const gus = await member({ country: "NL" });
    const { paymentId, providerId } = await paidPurchase(gus);
    await app.services.credits.changeNow(database.db, { userId: gus.userId, delta: -(SIGNUP_BONUS + 70), reason: "message" });
    const { reserved, payment } = await refund(paymentId);
    expect(reserved).toMatchObject({ taken: 30, spent: 70, balance: 0 });
    expect(payment.status).toBe("refunded");
    await app.services.payments.sync("sandbox", providerId);
    expect(await balanceOf(gus.userId)).toBe(0);
    const [standing] = await sqlRows<{ flag_reason: string }>(
      database.db,
      sql`select flag_reason from payment_standing where user_id = ${gus.userId}`,
    );
    expect(standing?.flag_reason).toBe("refund_after_spending");
  });

  it("gives the credits back when the provider refuses, and refuses what is not paid", async () => {
    const hal = await member({ country: "NL" });
    const { paymentId, providerId } = await paidPurchase(hal);
    // Refunded at the provider's dashboard meanwhile, not told to the site yet: the provider refuses.
    await database.db.execute(sql`update sandbox_payments set refunded_cents = amount_cents where id = ${providerId}`);
    const reserved = await database.db.transaction((tx) => support.reserveRefund(tx, paymentId));
    await expect(support.sendRefund(reserved)).rejects.toMatchObject({ code: "payment_provider_failed" });
    expect(await database.db.transaction((tx) => support.undoRefund(tx, reserved))).toBe(SIGNUP_BONUS + 100);
    const [row] = await sqlRows<{ refund_requested_at: Date | null; reversed_credits: number }>(
      database.db,
      sql`select refund_requested_at, reversed_credits from payments where id = ${paymentId}`,
    );
    expect(row).toEqual({ refund_requested_at: null, reversed_credits: 0 });

    const { payment_id: openId } = paymentCreateResponseSchema.parse(
      (await hal.client.post("/api/payment.php", { bundle_id: 1, method: "ideal", client_id: randomUUID() }, { host })).json(),
    );
    await expect(database.db.transaction((tx) => support.reserveRefund(tx, openId))).rejects.toMatchObject({
      code: "support_refund_not_allowed",
    });
    await expect(database.db.transaction((tx) => support.reserveRefund(tx, 2_000_000_000))).rejects.toMatchObject({
      code: "not_found",
    });
  });
});

describe("conversations", () => {
  it("stay closed until this staff member records a reason, then list the member's messages", async () => {
    const ivy = await member({ credits: 100 });
    const jon = await member({ gender: "male" });
    const sent = await ivy.client.post("/api/message.php", {
      client_id: randomUUID(),
      profile_id: jon.profileId,
      text: "Hello Jon",
    });
    expect(sent.statusCode, sent.body).toBe(200);

    await expect(support.conversations(STAFF, ivy.userId)).rejects.toMatchObject({ code: "conversation_reason_required" });
    const until = await database.db.transaction((tx) =>
      support.openConversations(tx, STAFF, ivy.userId, "Member asked about a charge"),
    );
    expect(until.getTime()).toBeGreaterThan(Date.now());
    const list = await support.conversations(STAFF, ivy.userId);
    expect(list).toEqual([
      expect.objectContaining({ other: expect.objectContaining({ profile_id: jon.profileId }), messages: 1 }),
    ]);
    const id = list[0]?.conversation_id ?? 0;
    expect(await support.messages(STAFF, ivy.userId, id)).toEqual([
      expect.objectContaining({ text: "Hello Jon", from_member: true, kind: "text" }),
    ]);
    expect((await support.dossier(ivy.userId, STAFF)).conversations_open_until).not.toBeNull();

    // Another staff member has given no reason; a conversation of someone else is not found.
    await expect(support.conversations(OTHER_STAFF, ivy.userId)).rejects.toMatchObject({ code: "conversation_reason_required" });
    await expect(support.messages(OTHER_STAFF, ivy.userId, id)).rejects.toMatchObject({ code: "conversation_reason_required" });
    const kim = await member();
    await database.db.transaction((tx) => support.openConversations(tx, STAFF, kim.userId, "Checking a complaint"));
    await expect(support.messages(STAFF, kim.userId, id)).rejects.toMatchObject({ code: "not_found" });

    // The reason expires.
    await database.db.execute(sql`update support_conversation_access set expires_at = now() - interval '1 second'`);
    await expect(support.conversations(STAFF, ivy.userId)).rejects.toMatchObject({ code: "conversation_reason_required" });
  });
});

describe("the staff console's support calls", () => {
  const auditOf = (memberId: number) =>
    sqlRows<{ action: string; staff_id: number; before: unknown; after: Record<string, unknown> }>(
      database.db,
      sql`select action, staff_id, before, after from staff_audit where member_id = ${memberId} order by id`,
    );

  it("answer support and admin; an operator or moderator is refused, without a staff session nothing is there", async () => {
    const lou = await member({ name: "Lou" });
    for (const role of ["support", "admin"] as const) {
      const { client } = await staffLogin(app, role);
      const found = await client.get(`/staff/api/support/members?q=${encodeURIComponent(lou.email)}`);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().members.map((hit: { user_id: number }) => hit.user_id)).toEqual([lou.userId]);
      expect((await client.get(`/staff/api/support/members/${lou.userId}`)).statusCode).toBe(200);
    }
    for (const role of ["operator", "moderator"] as const) {
      const { client } = await staffLogin(app, role);
      for (const url of [`/staff/api/support/members?q=lou`, `/staff/api/support/members/${lou.userId}`]) {
        const refused = await client.get(url);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error).toBe("staff_forbidden");
      }
      const corrected = await client.post(`/staff/api/support/members/${lou.userId}/credits`, {
        delta: 5,
        reason: "Goodwill gesture",
        key: randomUUID(),
      });
      expect(corrected.statusCode).toBe(403);
    }
    // A member's session is no staff session.
    expect((await lou.client.get(`/staff/api/support/members/${lou.userId}`)).statusCode).toBe(404);
    expect(await balanceOf(lou.userId)).toBe(SIGNUP_BONUS);
    expect(await auditOf(lou.userId)).toEqual([]);
  });

  it("serves every photo of a member to support only", async () => {
    const mia = await member();
    const photo = await addPhoto(app, mia.profileId, { private: true });
    const { client } = await staffLogin(app, "support");
    const { photos } = (await client.get(`/staff/api/support/members/${mia.userId}`)).json();
    expect(photos).toHaveLength(1);
    const file = await client.get(photos[0].url);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/jpeg");
    expect(photos[0].url).toBe(`/staff/api/support/${photo.filename}`);
    const operator = await staffLogin(app, "operator");
    expect((await operator.client.get(photos[0].url)).statusCode).toBe(403);
    expect((await mia.client.get(photos[0].url)).statusCode).toBe(404);
    expect((await client.get("/staff/api/support/photos/..%2Fsecret.jpg")).statusCode).toBe(404);
  });

  it("corrects credits with a reason in the audit log, once per key; a refused correction leaves no audit row", async () => {
    const ned = await member();
    const { client, staff } = await staffLogin(app, "support");
    const key = randomUUID();
    const body = { delta: 25, reason: "Message failed to send", key };
    const first = await client.post(`/staff/api/support/members/${ned.userId}/credits`, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ balance: SIGNUP_BONUS + 25, replayed: false });
    expect((await client.post(`/staff/api/support/members/${ned.userId}/credits`, body)).json()).toEqual({
      balance: SIGNUP_BONUS + 25,
      replayed: true,
    });
    // The member sees the new balance.
    const user = await ned.client.get("/api/user.php");
    expect(user.json().user.credits).toBe(SIGNUP_BONUS + 25);

    const below = await client.post(`/staff/api/support/members/${ned.userId}/credits`, {
      delta: -(SIGNUP_BONUS + 26),
      reason: "Taking too much",
      key: randomUUID(),
    });
    expect(below.statusCode).toBe(422);
    expect(below.json().error).toBe("correction_below_zero");
    const invalid = await client.post(`/staff/api/support/members/${ned.userId}/credits`, { delta: 0, reason: "x", key: "nope" });
    expect(invalid.statusCode).toBe(422);
    expect(await balanceOf(ned.userId)).toBe(SIGNUP_BONUS + 25);

    const audit = await auditOf(ned.userId);
    expect(audit.map((row) => [row.action, row.staff_id, row.after.replayed])).toEqual([
      ["credits.correct", staff.id, false],
      ["credits.correct", staff.id, true],
    ]);
    expect(audit[0]).toMatchObject({ before: { balance: SIGNUP_BONUS }, after: { reason: "Message failed to send", delta: 25 } });
  });

  it("refunds a payment through the sandbox with the audit row, and shows conversations only after a recorded reason", async () => {
    const ola = await member({ country: "NL" });
    const { paymentId } = await paidPurchase(ola);
    const { client, staff } = await staffLogin(app, "support");
    const refunded = await client.post(`/staff/api/support/payments/${paymentId}/refund`, { reason: "Bought by mistake" });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ taken: 100, spent: 0, balance: SIGNUP_BONUS, replayed: false });
    expect(refunded.json().payment).toMatchObject({ payment_id: paymentId, status: "refunded", refundable: false });
    const again = await client.post(`/staff/api/support/payments/${paymentId}/refund`, { reason: "Bought by mistake" });
    expect(again.json()).toMatchObject({ replayed: true, balance: SIGNUP_BONUS });
    expect((await client.post("/staff/api/support/payments/2000000000/refund", { reason: "No such order" })).statusCode).toBe(
      404,
    );

    const locked = await client.get(`/staff/api/support/members/${ola.userId}/conversations`);
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error).toBe("conversation_reason_required");
    expect(
      (await client.post(`/staff/api/support/members/${ola.userId}/conversations/access`, { reason: "no" })).statusCode,
    ).toBe(422);
    const opened = await client.post(`/staff/api/support/members/${ola.userId}/conversations/access`, {
      reason: "Complaint #12 about harassment",
    });
    expect(opened.statusCode, opened.body).toBe(200);
    expect((await client.get(`/staff/api/support/members/${ola.userId}/conversations`)).json()).toEqual({ conversations: [] });

    const audit = await auditOf(ola.userId);
    expect(audit.map((row) => [row.action, row.staff_id])).toEqual([
      ["payment.refund", staff.id],
      ["payment.refund", staff.id],
      ["member.conversations.open", staff.id],
    ]);
    expect(audit[0]?.after).toMatchObject({ reason: "Bought by mistake", taken: 100, spent: 0 });
    expect(audit[2]?.after).toMatchObject({ reason: "Complaint #12 about harassment" });
    // The member's audit log, as the dossier shows it (the foundation's call).
    const log = await client.get(`/staff/api/audit?member_id=${ola.userId}`);
    expect(log.json().entries.map((entry: { action: string }) => entry.action)).toEqual([
      "member.conversations.open",
      "payment.refund",
      "payment.refund",
    ]);
  });
});
