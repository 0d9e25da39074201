import { randomUUID } from "node:crypto";
import {
  type BundlesResponse,
  bundlesResponseSchema,
  type Payment,
  paymentCreateResponseSchema,
  paymentSchema,
  transactionsResponseSchema,
} from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TestClient } from "../../test/client.ts";
import { createMember, sqlCount, sqlRows, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp, usingPostgres } from "../../test/harness.ts";
import type { SandboxOutcome, SandboxProvider } from "./providers/sandbox.ts";
import { nextStatus } from "./service.ts";

let database: TestDatabase;
let app: TestApp;
let sandbox: SandboxProvider;
/** The address the test browser uses. */
let host: string;
/**
 * The site's configured origin: the provider's webhook and redirect go there (issue #25). A loopback
 * site without PUBLIC_URL: http://localhost:<the port it listens on>, as `npm start` prints.
 */
let origin: string;

const SIGNUP_BONUS = 20;
/** The seeded bundles (migration 0015): credits and euro prices. */
const BUNDLES = {
  1: { credits: 100, eur: 9.99 },
  2: { credits: 250, eur: 22.49 },
  3: { credits: 500, eur: 39.99 },
  4: { credits: 1200, eur: 79.99 },
};

useTestApp({ env: { GEOIP_HEADER: "x-country" }, seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
  if (!app.services.sandbox) throw new Error("the sandbox provider is the default");
  sandbox = app.services.sandbox;
  host = new URL(app.url).host;
  origin = `http://localhost:${new URL(app.url).port}`;
});

const member = (options: Parameters<typeof createMember>[1] = {}) => createMember(app, { activate: true, ...options });

async function bundlesOf(client: TestClient, headers: Record<string, string> = {}): Promise<BundlesResponse> {
  const response = await client.get("/api/bundles.php", headers);
  expect(response.statusCode, response.body).toBe(200);
  return bundlesResponseSchema.parse(response.json());
}

/** Starts a purchase as the browser would. */
async function buy(who: TestMember, bundleId: number, method: string, clientId = randomUUID()) {
  const response = await who.client.post("/api/payment.php", { bundle_id: bundleId, method, client_id: clientId }, { host });
  expect(response.statusCode, response.body).toBe(200);
  return paymentCreateResponseSchema.parse(response.json());
}

async function paymentOf(who: TestMember, id: number): Promise<Payment> {
  const response = await who.client.get(`/api/payment.php?id=${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return paymentSchema.parse(response.json());
}

const providerIdOf = async (paymentId: number) =>
  (await sqlRows<{ provider_id: string }>(database.db, sql`select provider_id from payments where id = ${paymentId}`))[0]
    ?.provider_id ?? "";

const balanceOf = async (userId: number) => (await app.services.credits.account(database.db, userId)).credits;
const ledgerOf = (userId: number) =>
  sqlRows<{ delta: number; reason: string; key: string | null }>(
    database.db,
    sql`select delta, reason, key from credit_ledger where user_id = ${userId} order by id`,
  );

/** The provider's webhook as the provider sends it: form-encoded `id=`, from outside, no session. */
const webhook = (providerId: string) =>
  app.server.inject({
    method: "POST",
    url: "/hooks/payments/sandbox",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: `id=${encodeURIComponent(providerId)}`,
  });

/** Runs due jobs (the sandbox's webhooks, recurring settlements, receipts) until `done` or 15 s. */
async function runJobsUntil(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("jobs did not get there in 15 s");
    await app.services.jobs.runDue();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The checkout page's button, as the browser posts it. */
const checkout = (providerId: string, field: "status" | "action", value: string) =>
  app.server.inject({
    method: "POST",
    url: `/sandbox/checkout/${providerId}`,
    headers: { "content-type": "application/x-www-form-urlencoded", origin: `http://${host}`, host },
    payload: `${field}=${value}`,
  });

describe("bundles", () => {
  it("offers the bundles in the member's currency with the methods of the payment country", async () => {
    const dutch = await member({ country: "NL" });
    const nl = await bundlesOf(dutch.client);
    expect(nl.country).toBe("NL");
    expect(nl.currency).toBe("EUR");
    expect(nl.bundles.map((b) => [b.id, b.credits, b.price, b.best_value])).toEqual([
      [1, 100, 9.99, false],
      [2, 250, 22.49, false],
      [3, 500, 39.99, true],
      [4, 1200, 79.99, false],
    ]);
    expect(nl.methods).toContain("ideal");
    expect(nl.methods).toContain("directdebit");
    expect(nl.methods).not.toContain("blik");
    expect(nl.costs).toEqual({ message: 10, photo: 20, gift: 30 });
    expect(nl.refund_days).toBe(14);
    expect(nl.repeat_order).toBeNull();

    // Geo-ip wins over the profile: a Dutch member in Poland pays in złoty with BLIK.
    const pl = await bundlesOf(dutch.client, { "x-country": "PL" });
    expect(pl.currency).toBe("PLN");
    expect(pl.methods).toEqual(expect.arrayContaining(["blik", "przelewy24", "creditcard", "paypal"]));
    expect(pl.methods).not.toContain("ideal");
    expect(pl.bundles[0]?.price).toBe(44.99);

    // Visitors see prices too (/pricing), in their geo-ip country's currency.
    const visitor = await app.server.inject({ method: "GET", url: "/api/bundles.php", headers: { "x-country": "GB" } });
    const gb = bundlesResponseSchema.parse(visitor.json());
    expect(gb.currency).toBe("GBP");
    expect(gb.methods).not.toContain("directdebit");
  });
});

describe("a purchase on the sandbox", () => {
  it("credits the bundle once, on the provider's word, makes the member premium and mails a receipt", async () => {
    const buyer = await member({ country: "NL", locale: "nl" });
    const clientId = randomUUID();
    const created = await buy(buyer, 3, "ideal", clientId);
    expect(created.checkout_url).toMatch(/^\/sandbox\/checkout\/tr_sbx_/);
    // A repeated request (double click, retry) answers the same payment.
    expect(await buy(buyer, 3, "ideal", clientId)).toEqual(created);
    expect(await sqlCount(database.db, sql`select count(*)::int as n from payments where user_id = ${buyer.userId}`)).toBe(1);

    const pending = await paymentOf(buyer, created.payment_id);
    expect(pending).toMatchObject({ status: "pending", credits: 500, amount: 39.99, currency: "EUR", method: "ideal" });
    expect(pending.checkout_url).toBe(created.checkout_url);

    // The checkout page shows the amount and method in the member's language.
    const page = await app.server.inject({ method: "GET", url: created.checkout_url ?? "" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/€\s39,99/);
    expect(page.body).toContain("iDEAL");
    expect(page.body).toContain("Open laten");
    // The page's form posts back to the same origin with an Origin header (not "null").
    expect(page.headers["referrer-policy"]).toBe("same-origin");

    // The browser returns before the provider has told the site: nothing is credited yet.
    const providerId = await providerIdOf(created.payment_id);
    const back = await checkout(providerId, "status", "paid");
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`${origin}/transactions/${created.payment_id}`);
    expect((await paymentOf(buyer, created.payment_id)).status).toBe("pending");
    expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS);

    // The sandbox's webhook (a durable job posting to the site) brings the outcome.
    await runJobsUntil(async () => (await paymentOf(buyer, created.payment_id)).status === "paid");
    expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS + 500);
    expect((await app.services.credits.account(database.db, buyer.userId)).paid).toBe(true);
    expect((await ledgerOf(buyer.userId)).filter((row) => row.reason === "purchase")).toEqual([
      { delta: 500, reason: "purchase", key: `payment:${created.payment_id}` },
    ]);
    const user = (await buyer.client.get("/api/user.php")).json();
    expect(user.user).toMatchObject({ paid_user: true, credits: SIGNUP_BONUS + 500 });

    // The receipt, in Dutch, with the company's particulars.
    await runJobsUntil(
      async () =>
        (await sqlCount(
          database.db,
          sql`select count(*)::int as n from mail_outbox where "to" = ${buyer.email} and subject like '%#%'`,
        )) > 0,
    );
    const [receipt] = await sqlRows<{ subject: string; text: string }>(
      database.db,
      sql`select subject, text from mail_outbox where "to" = ${buyer.email} and subject like '%#%'`,
    );
    expect(receipt?.subject).toBe(`Je bon voor bestelling #${created.payment_id}`);
    expect(receipt?.text).toContain("500 credits");
    expect(receipt?.text).toMatch(/€\s39,99/);
    const company = await app.services.site.companyInfo("");
    expect(receipt?.text).toContain(company.name);
    expect(receipt?.text).toContain(company.kvk);

    // The history lists it; the page is the member's alone.
    const history = transactionsResponseSchema.parse((await buyer.client.get("/api/transactions.php")).json());
    expect(history.payments.map((p) => [p.payment_id, p.status])).toEqual([[created.payment_id, "paid"]]);
    const stranger = await member();
    expect((await stranger.client.get(`/api/payment.php?id=${created.payment_id}`)).statusCode).toBe(404);
    expect(transactionsResponseSchema.parse((await stranger.client.get("/api/transactions.php")).json()).payments).toEqual([]);
  });

  it("refuses methods, bundles and members it should not take", async () => {
    const dutch = await member({ country: "NL" });
    const post = (body: object) => dutch.client.post("/api/payment.php", { client_id: randomUUID(), ...body }, { host });
    expect((await post({ bundle_id: 1, method: "blik" })).json().error).toBe("payment_method_unavailable");
    // Direct debit goes through the site's own form, not a checkout page.
    expect((await post({ bundle_id: 1, method: "directdebit" })).json().error).toBe("payment_method_unavailable");
    expect((await post({ bundle_id: 99, method: "ideal" })).json().error).toBe("bundle_unavailable");
    expect((await post({ bundle_id: 1, method: "bitcoin" })).json().error).toBe("validation_failed");
    const visitor = await app.server.inject({
      method: "POST",
      url: "/api/payment.php",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ bundle_id: 1, method: "ideal", client_id: randomUUID() }),
    });
    expect(visitor.json().error).toBe("authentication_required");
    expect(await sqlCount(database.db, sql`select count(*)::int as n from payments where user_id = ${dutch.userId}`)).toBe(0);
  });

  it("leaves failed, cancelled and expired payments without credits, and a pending one pending", async () => {
    const buyer = await member({ country: "NL" });
    const outcomes: SandboxOutcome[] = ["failed", "canceled", "expired", "open"];
    const ids: number[] = [];
    for (const outcome of outcomes) {
      const { payment_id } = await buy(buyer, 1, "creditcard");
      ids.push(payment_id);
      expect((await checkout(await providerIdOf(payment_id), "status", outcome)).statusCode).toBe(303);
    }
    await runJobsUntil(async () => (await paymentOf(buyer, ids[0] ?? 0)).status === "failed");
    await runJobsUntil(async () => (await paymentOf(buyer, ids[1] ?? 0)).status === "cancelled");
    await runJobsUntil(async () => (await paymentOf(buyer, ids[2] ?? 0)).status === "expired");
    expect((await paymentOf(buyer, ids[3] ?? 0)).status).toBe("pending");
    expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS);
    expect((await app.services.credits.account(database.db, buyer.userId)).paid).toBe(false);
  });
});

describe("the site's own origin for the provider (issue #25)", () => {
  it("gives the provider redirect and webhook URLs on the configured origin, whatever Host the request names", async () => {
    const buyer = await member({ country: "NL" });
    // Once, a Host naming another port made the server post its own webhooks there.
    const response = await buyer.client.post(
      "/api/payment.php",
      { bundle_id: 1, method: "ideal", client_id: randomUUID() },
      { host: "127.0.0.1:39999" },
    );
    expect(response.statusCode, response.body).toBe(200);
    const created = paymentCreateResponseSchema.parse(response.json());
    expect(await sandbox.find(await providerIdOf(created.payment_id))).toMatchObject({
      redirectUrl: `${origin}/transactions/${created.payment_id}`,
      webhookUrl: `${origin}/hooks/payments/sandbox`,
    });
    // The checkout page says it is a test site (decision 030).
    const page = await app.server.inject({ method: "GET", url: created.checkout_url ?? "" });
    expect(page.body).toContain("Test site: no real payments");
  });
});

describe("every method on the sandbox", () => {
  it("sells a bundle with each method offered in NL, BE, AT, PL and CH (direct debit through its own form)", async () => {
    const bought: string[] = [];
    for (const country of ["NL", "BE", "AT", "PL", "CH"]) {
      const buyer = await member({ country });
      const offer = await bundlesOf(buyer.client, { "x-country": country });
      for (const method of offer.methods.filter((m) => m !== "directdebit")) {
        const response = await buyer.client.post(
          "/api/payment.php",
          { bundle_id: 1, method, client_id: randomUUID() },
          { host, "x-country": country },
        );
        expect(response.statusCode, `${country} ${method}: ${response.body}`).toBe(200);
        const { payment_id } = paymentCreateResponseSchema.parse(response.json());
        const providerId = await providerIdOf(payment_id);
        expect((await checkout(providerId, "status", "paid")).statusCode).toBe(303);
        await webhook(providerId);
        expect(await paymentOf(buyer, payment_id), `${country} ${method}`).toMatchObject({
          status: "paid",
          method,
          currency: offer.currency,
        });
        bought.push(`${country}:${method}`);
      }
    }
    expect(bought).toEqual(
      expect.arrayContaining([
        "NL:ideal",
        "BE:bancontact",
        "BE:kbc",
        "BE:belfius",
        "AT:eps",
        "PL:blik",
        "PL:przelewy24",
        "CH:twint",
      ]),
    );
    expect(bought).toEqual(
      expect.arrayContaining(["NL:creditcard", "NL:applepay", "NL:paypal", "NL:paysafecard", "NL:banktransfer"]),
    );
  }, 60_000);
});

describe("exactly once, whatever the webhooks do", () => {
  it("20 payments with mixed outcomes, each webhook sent 10 times, shuffled and at once: one credit per paid payment", async () => {
    const buyers = await Promise.all([1, 2, 3, 4].map(() => member({ country: "NL" })));
    const outcomes: SandboxOutcome[] = ["paid", "failed", "canceled", "expired", "paid", "open", "paid", "paid"];
    const planned: Array<{
      buyer: TestMember;
      paymentId: number;
      providerId: string;
      outcome: SandboxOutcome;
      bundle: 1 | 2 | 3 | 4;
    }> = [];
    for (let i = 0; i < 20; i++) {
      const buyer = buyers[i % buyers.length] as TestMember;
      const bundle = ((i % 4) + 1) as 1 | 2 | 3 | 4;
      const { payment_id } = await buy(buyer, bundle, i % 2 ? "ideal" : "creditcard");
      planned.push({
        buyer,
        paymentId: payment_id,
        providerId: await providerIdOf(payment_id),
        outcome: outcomes[i % outcomes.length] as SandboxOutcome,
        bundle,
      });
    }
    // The provider's side settles, then its webhooks arrive: 10 per payment, in random order, together.
    for (const p of planned) await sandbox.complete(p.providerId, p.outcome);
    const calls = planned.flatMap((p) => Array.from({ length: 10 }, () => p.providerId));
    for (let i = calls.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [calls[i], calls[j]] = [calls[j] as string, calls[i] as string];
    }
    const answers = await Promise.all(calls.map((id) => webhook(id)));
    expect(answers.map((a) => a.statusCode)).toEqual(calls.map(() => 200));

    const expected = { paid: "paid", failed: "failed", canceled: "cancelled", expired: "expired", open: "pending" } as const;
    for (const p of planned)
      expect((await paymentOf(p.buyer, p.paymentId)).status, `payment ${p.paymentId}`).toBe(expected[p.outcome]);
    for (const buyer of buyers) {
      const paid = planned.filter((p) => p.buyer === buyer && p.outcome === "paid");
      const purchases = (await ledgerOf(buyer.userId)).filter((row) => row.reason === "purchase");
      expect(purchases.map((row) => row.key).sort()).toEqual(paid.map((p) => `payment:${p.paymentId}`).sort());
      expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS + paid.reduce((sum, p) => sum + BUNDLES[p.bundle].credits, 0));
      expect((await app.services.credits.account(database.db, buyer.userId)).paid).toBe(paid.length > 0);
    }
    // Leftover sandbox jobs (its own webhooks for the same payments) change nothing either.
    await app.services.jobs.runDue();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await app.services.jobs.runDue();
    for (const buyer of buyers) {
      const paid = planned.filter((p) => p.buyer === buyer && p.outcome === "paid");
      expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS + paid.reduce((sum, p) => sum + BUNDLES[p.bundle].credits, 0));
    }
  }, 60_000);

  it("a late 'failed' after 'paid' changes nothing; unknown ids answer 200 and change nothing", async () => {
    const buyer = await member({ country: "NL" });
    const { payment_id } = await buy(buyer, 2, "ideal");
    const providerId = await providerIdOf(payment_id);
    await sandbox.complete(providerId, "paid");
    await webhook(providerId);
    // The provider's answer turns around (a reordered or wrong report): the site keeps what was paid.
    await database.db.execute(sql`update sandbox_payments set status = 'failed' where id = ${providerId}`);
    expect((await webhook(providerId)).statusCode).toBe(200);
    expect((await paymentOf(buyer, payment_id)).status).toBe("paid");
    expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS + 250);

    expect((await webhook("tr_sbx_nothing")).statusCode).toBe(200);
    expect((await webhook("")).statusCode).toBe(200);
  });

  it("keeps the transitions a provider can really make", () => {
    expect(nextStatus("pending", "paid")).toBe("paid");
    expect(nextStatus("paid", "failed")).toBe("paid");
    expect(nextStatus("paid", "pending")).toBe("paid");
    expect(nextStatus("paid", "refunded")).toBe("refunded");
    expect(nextStatus("expired", "paid")).toBe("paid");
    expect(nextStatus("failed", "cancelled")).toBe("failed");
    expect(nextStatus("refunded", "paid")).toBe("refunded");
    expect(nextStatus("charged_back", "paid")).toBe("charged_back");
    expect(nextStatus("created", "pending")).toBe("pending");
  });

  it("asks the provider about an open payment whose webhook never came", async () => {
    const buyer = await member({ country: "NL" });
    const { payment_id } = await buy(buyer, 1, "paypal");
    const providerId = await providerIdOf(payment_id);
    await sandbox.complete(providerId, "paid");
    // The webhooks are lost.
    await database.db.execute(sql`delete from jobs where name = 'sandbox.send-webhook' and payload->>'id' = ${providerId}`);
    expect(await app.services.payments.reconcile(new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1);
    expect((await paymentOf(buyer, payment_id)).status).toBe("paid");
    expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS + 100);
  });
});

describe("refunds and chargebacks", () => {
  async function paidPurchase(buyer: TestMember, bundle: 1 | 2 | 3 | 4, method = "ideal") {
    const { payment_id } = await buy(buyer, bundle, method);
    const providerId = await providerIdOf(payment_id);
    await sandbox.complete(providerId, "paid");
    await webhook(providerId);
    expect((await paymentOf(buyer, payment_id)).status).toBe("paid");
    return { paymentId: payment_id, providerId };
  }

  it("a member returns an unspent bundle within the refund days; spent or returned ones are not refundable", async () => {
    const buyer = await member({ country: "NL" });
    const { paymentId } = await paidPurchase(buyer, 1);
    expect((await paymentOf(buyer, paymentId)).refundable).toBe(true);
    const refunded = await buyer.client.post("/api/refund.php", { payment_id: paymentId });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(paymentSchema.parse(refunded.json())).toMatchObject({ status: "refunded", refundable: false });
    expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS);
    expect((await buyer.client.post("/api/refund.php", { payment_id: paymentId })).json().error).toBe("refund_not_allowed");
    // The provider's own webhook for the refund takes nothing more.
    await webhook(await providerIdOf(paymentId));
    expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS);

    const second = await paidPurchase(buyer, 1);
    await app.services.credits.changeNow(database.db, { userId: buyer.userId, delta: -30, reason: "message" });
    expect((await paymentOf(buyer, second.paymentId)).refundable).toBe(false);
    expect((await buyer.client.post("/api/refund.php", { payment_id: second.paymentId })).json().error).toBe(
      "refund_not_allowed",
    );
    // Someone else's order is not found at all.
    const stranger = await member();
    expect((await stranger.client.post("/api/refund.php", { payment_id: second.paymentId })).statusCode).toBe(404);
  });

  it("a refund made at the provider after spending takes back what is left, never below zero, and flags the account", async () => {
    const buyer = await member({ country: "NL" });
    const { paymentId, providerId } = await paidPurchase(buyer, 1);
    await app.services.credits.changeNow(database.db, { userId: buyer.userId, delta: -(SIGNUP_BONUS + 50), reason: "message" });
    await sandbox.act(providerId, "refund");
    await webhook(providerId);
    expect((await paymentOf(buyer, paymentId)).status).toBe("refunded");
    expect(await balanceOf(buyer.userId)).toBe(0);
    expect((await ledgerOf(buyer.userId)).at(-1)).toEqual({ delta: -50, reason: "refund", key: `refunded:${paymentId}` });
    const [standing] = await sqlRows<{ flag_reason: string }>(
      database.db,
      sql`select flag_reason from payment_standing where user_id = ${buyer.userId}`,
    );
    expect(standing?.flag_reason).toBe("refund_after_spending");
  });

  it("spends racing a chargeback never make the balance negative, and the ledger adds up", async () => {
    const buyer = await member({ country: "NL" });
    const { paymentId, providerId } = await paidPurchase(buyer, 1);
    const start = await balanceOf(buyer.userId);
    await sandbox.act(providerId, "chargeback");
    const spends = Array.from({ length: 15 }, () =>
      app.services.credits.changeNow(database.db, { userId: buyer.userId, delta: -10, reason: "message" }),
    );
    const [, ...spent] = await Promise.all([webhook(providerId), ...spends]);
    const done = spent.filter((s) => s !== null).length;
    const balance = await balanceOf(buyer.userId);
    expect(balance).toBeGreaterThanOrEqual(0);
    const ledger = await ledgerOf(buyer.userId);
    expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(balance);
    const taken = -(ledger.find((row) => row.reason === "chargeback")?.delta ?? 0);
    expect(start - done * 10 - taken).toBe(balance);
    expect(taken).toBeLessThanOrEqual(100);
    expect((await paymentOf(buyer, paymentId)).status).toBe("charged_back");
  });
});

describe("repeat orders", () => {
  it("buys the last bundle again on the stored card; a revoked card fails and is not offered again", async () => {
    const buyer = await member({ country: "NL" });
    const first = await buy(buyer, 2, "creditcard");
    const providerId = await providerIdOf(first.payment_id);
    await checkout(providerId, "status", "paid");
    await webhook(providerId);
    const offer = await bundlesOf(buyer.client);
    expect(offer.repeat_order).toEqual({ bundle_id: 2, credits: 250, price: 22.49, method: "creditcard" });

    const post = (clientId = randomUUID()) => buyer.client.post("/api/repeat-order.php", { client_id: clientId }, { host });
    const repeat = paymentCreateResponseSchema.parse((await post()).json());
    expect(repeat.checkout_url).toBeNull();
    await runJobsUntil(async () => (await paymentOf(buyer, repeat.payment_id)).status === "paid");
    expect(await paymentOf(buyer, repeat.payment_id)).toMatchObject({ bundle_id: 2, method: "creditcard", recurring: true });
    expect((await paymentOf(buyer, first.payment_id)).recurring).toBe(false);
    expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS + 500);

    // The bank revokes the card: the next repeat order fails ("Credit card payment failed").
    await checkout(providerId, "action", "revoke_mandate");
    const failing = paymentCreateResponseSchema.parse((await post()).json());
    await runJobsUntil(async () => (await paymentOf(buyer, failing.payment_id)).status === "failed");
    expect(await balanceOf(buyer.userId)).toBe(SIGNUP_BONUS + 500);
    expect((await bundlesOf(buyer.client)).repeat_order).toBeNull();
    expect((await post()).json().error).toBe("repeat_order_unavailable");
  }, 30_000);
});

describe("direct debit", () => {
  const start = (who: TestMember, body: object) =>
    who.client.post(
      "/api/directdebit.php",
      { bundle_id: 1, name: "Anna de Vries", iban: "NL91 ABNA 0417 1643 00", phone: "+31 6 1234 5678", ...body },
      { host },
    );
  const confirm = (who: TestMember, verificationId: string, code: string, clientId = randomUUID()) =>
    who.client.post("/api/directdebit-confirm.php", { verification_id: verificationId, code, client_id: clientId }, { host });
  const lastCode = async (phone: string) =>
    (
      await sqlRows<{ text: string }>(
        database.db,
        sql`select text from sms_outbox where "to" = ${phone} order by id desc limit 1`,
      )
    )[0]?.text.match(/\d{6}/)?.[0] ?? "";

  it("checks the IBAN and phone, texts a code, counts wrong codes, and charges the bundle on the right one", async () => {
    const payer = await member({ country: "NL" });
    expect((await start(payer, { iban: "NL91 ABNA 0417 1643 01" })).json().error).toBe("iban_invalid");
    // A valid IBAN outside SEPA cannot be debited.
    expect((await start(payer, { iban: "BR15 0000 0000 0000 1093 2840 814P2" })).json().error).toBe("iban_invalid");
    expect((await start(payer, { phone: "0612345678" })).json().error).toBe("phone_invalid");

    const started = await start(payer, {});
    expect(started.statusCode, started.body).toBe(200);
    const { verification_id, phone } = started.json();
    expect(phone).toBe("+31 6•••••678");
    const code = await lastCode("+31612345678");
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === "000000" ? "111111" : "000000";
    const refused = await confirm(payer, verification_id, wrong);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: "code_invalid", message: "Code invalid" });

    const clientId = randomUUID();
    const charged = paymentCreateResponseSchema.parse((await confirm(payer, verification_id, code, clientId)).json());
    expect(charged.checkout_url).toBeNull();
    // The same confirm again (a lost answer) finds the same payment; the used code works no more.
    expect(paymentCreateResponseSchema.parse((await confirm(payer, verification_id, code, clientId)).json())).toEqual(charged);
    expect((await confirm(payer, verification_id, code)).json().error).toBe("code_invalid");
    await runJobsUntil(async () => (await paymentOf(payer, charged.payment_id)).status === "paid");
    expect(await paymentOf(payer, charged.payment_id)).toMatchObject({ method: "directdebit", credits: 100 });
    expect(await balanceOf(payer.userId)).toBe(SIGNUP_BONUS + 100);
    // The IBAN is not kept once the mandate exists.
    expect(
      await sqlCount(
        database.db,
        sql`select count(*)::int as n from direct_debit_verifications where user_id = ${payer.userId} and iban <> ''`,
      ),
    ).toBe(0);
  }, 30_000);

  it("a code dies after 5 wrong tries", async () => {
    const payer = await member({ country: "NL" });
    const { verification_id } = (await start(payer, { phone: "+31612340001" })).json();
    const code = await lastCode("+31612340001");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await confirm(payer, verification_id, wrong)).json().error).toBe("code_invalid");
    expect((await confirm(payer, verification_id, code)).json().error).toBe("code_invalid");
    expect(await sqlCount(database.db, sql`select count(*)::int as n from payments where user_id = ${payer.userId}`)).toBe(0);
  });

  it("limits what one member pays by direct debit, and blocks direct debit after a chargeback", async () => {
    const payer = await member({ country: "NL" });
    const pay = async (bundle: number) => {
      const { verification_id } = (await start(payer, { bundle_id: bundle, phone: "+31612340002" })).json();
      return confirm(payer, verification_id, await lastCode("+31612340002"));
    };
    const first = paymentCreateResponseSchema.parse((await pay(4)).json());
    // €79.99 + €39.99 is over the €100 a month.
    const over = await start(payer, { bundle_id: 3, phone: "+31612340002" });
    expect(over.json()).toMatchObject({
      error: "direct_debit_limit",
      message:
        "Your limit for direct debit payments has been reached. Please try later, a cheaper package or another payment method.",
    });
    await runJobsUntil(async () => (await paymentOf(payer, first.payment_id)).status === "paid");
    await sandbox.act(await providerIdOf(first.payment_id), "chargeback");
    await webhook(await providerIdOf(first.payment_id));
    expect((await start(payer, { bundle_id: 1 })).json()).toMatchObject({
      error: "direct_debit_blocked",
      message: "Your account is blocked for direct debit payments.",
    });
  }, 30_000);
});

describe.runIf(usingPostgres)("on PostgreSQL", () => {
  it("runs this file against a real server", () => {
    expect(app.services.database.kind).toBe("postgres");
  });
});
