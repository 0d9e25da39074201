import { randomUUID } from "node:crypto";
import { paymentCreateResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addPhoto, createMember, type MemberOptions, sqlRows, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
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
  sqlRows<{ delta: number; reason: string }>(database.db, sql`select delta, reason from credit_ledger where user_id = ${userId} order by id`);

/** A paid purchase of bundle 1 (100 credits) on the sandbox, as the buyer's browser and the webhook make it. */
async function paidPurchase(buyer: TestMember): Promise<{ paymentId: number; providerId: string }> {
  const created = await buyer.client.post("/api/payment.php", { bundle_id: 1, method: "ideal", client_id: randomUUID() }, { host });
  expect(created.statusCode, created.body).toBe(200);
  const paymentId = paymentCreateResponseSchema.parse(created.json()).payment_id;
  const [row] = await sqlRows<{ provider_id: string }>(database.db, sql`select provider_id from payments where id = ${paymentId}`);
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
    expect(
      (await support.search(`#${paymentId}`)).map((hit) => [hit.user_id, hit.matched]),
    ).toEqual([[anna.userId, "payment"]]);

    // LIKE's own characters are taken literally; nothing unknown is found.
    expect(await support.search("%")).toEqual([]);
    expect(await support.search(`_upport-${tag}`)).toEqual([]);
    expect(await support.search("no-such-member-anywhere")).toEqual([]);
    expect(await support.search("   ")).toEqual([]);
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
    expect(dossier.likes.received).toEqual([expect.objectContaining({ profile_id: cleo.profileId, name: "Cleo", matched: false })]);
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
    const sent = await ivy.client.post("/api/message.php", { client_id: randomUUID(), profile_id: jon.profileId, text: "Hello Jon" });
    expect(sent.statusCode, sent.body).toBe(200);

    await expect(support.conversations(STAFF, ivy.userId)).rejects.toMatchObject({ code: "conversation_reason_required" });
    const until = await database.db.transaction((tx) => support.openConversations(tx, STAFF, ivy.userId, "Member asked about a charge"));
    expect(until.getTime()).toBeGreaterThan(Date.now());
    const list = await support.conversations(STAFF, ivy.userId);
    expect(list).toEqual([expect.objectContaining({ other: expect.objectContaining({ profile_id: jon.profileId }), messages: 1 })]);
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
