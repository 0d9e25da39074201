import { randomUUID } from "node:crypto";
import { bundlesResponseSchema, paymentCreateResponseSchema, settingsResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../seed/seed.ts";
import { createMember, sqlCount } from "../../test/factories.ts";
import { openTestDatabase, startTestApp, type TestApp, type TestDatabase } from "../../test/harness.ts";

/**
 * Issue #25, hole 2 (decision 030): the sandbox provider, whose checkout has a "Paid" button, and the
 * outboxes run only on a test site: a loopback one, or one that says PAYMENTS_PROVIDER=sandbox. A public
 * site without MOLLIE_API_KEY sells nothing and says so.
 */
let database: TestDatabase;

/** A site other machines reach (HOST 0.0.0.0 with its PUBLIC_URL), with `env` on top. */
const publicSite = (env: Record<string, string> = {}) =>
  startTestApp(database, { listen: false, env: { HOST: "0.0.0.0", PUBLIC_URL: "https://www.amoria.example", ...env } });

beforeAll(async () => {
  database = await openTestDatabase();
  const seeding = await startTestApp(database, { listen: false });
  await seed(seeding.services, { profiles: 0 });
  await seeding.stop();
});

afterAll(async () => {
  await database?.destroy();
});

const paymentsOf = (userId: number) =>
  sqlCount(database.db, sql`select count(*)::int as n from payments where user_id = ${userId}`);

describe("a public site without a payment provider", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await publicSite();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("has no sandbox, no mailbox, and refuses purchases with a translated 503 that writes nothing", async () => {
    expect(app.services.sandbox).toBeNull();
    expect((await app.server.inject({ url: "/sandbox/checkout/tr_sbx_x" })).statusCode).toBe(404);
    expect((await app.server.inject({ url: "/dev/mailbox" })).statusCode).toBe(404);
    expect((await app.server.inject({ method: "POST", url: "/hooks/payments/sandbox", payload: "id=x" })).statusCode).toBe(404);

    const buyer = await createMember(app, { activate: true, country: "NL", locale: "de" });
    const bundles = bundlesResponseSchema.parse((await buyer.client.get("/api/bundles.php")).json());
    expect(bundles.purchases_available).toBe(false);

    const calls = [
      ["/api/payment.php", { bundle_id: 1, method: "ideal", client_id: randomUUID() }],
      ["/api/repeat-order.php", { client_id: randomUUID() }],
      ["/api/directdebit.php", { bundle_id: 1, name: "Anna de Vries", iban: "NL91 ABNA 0417 1643 00", phone: "+31 6 1234 5678" }],
      ["/api/directdebit-confirm.php", { verification_id: randomUUID(), code: "123456", client_id: randomUUID() }],
    ] as const;
    for (const [url, body] of calls) {
      const response = await buyer.client.post(url, body);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(503);
      expect(response.json()).toEqual({ error: "payments_unavailable", message: "Käufe sind im Moment nicht möglich." });
    }
    expect(await paymentsOf(buyer.userId)).toBe(0);
    // No code was texted either (the SMS outbox is empty).
    expect(await sqlCount(database.db, sql`select count(*)::int as n from sms_outbox`)).toBe(0);
  });

  it("says so in the settings every page loads, so the web offers no discount or buy button (issue #25)", async () => {
    expect(settingsOf(await app.server.inject({ url: "/api/settings.php" })).purchases_available).toBe(false);
  });
});

const settingsOf = (response: { statusCode: number; body: string; json(): unknown }) => {
  expect(response.statusCode, response.body).toBe(200);
  return settingsResponseSchema.parse(response.json()).settings;
};

describe("a public site that says PAYMENTS_PROVIDER=sandbox", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await publicSite({ PAYMENTS_PROVIDER: "sandbox" });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("sells through the sandbox, whose checkout page says it is a test site", async () => {
    expect(app.services.sandbox).not.toBeNull();
    const buyer = await createMember(app, { activate: true, country: "NL" });
    expect(bundlesResponseSchema.parse((await buyer.client.get("/api/bundles.php")).json()).purchases_available).toBe(true);
    const response = await buyer.client.post("/api/payment.php", { bundle_id: 1, method: "ideal", client_id: randomUUID() });
    expect(response.statusCode, response.body).toBe(200);
    const created = paymentCreateResponseSchema.parse(response.json());
    expect(created.checkout_url).toMatch(/^\/sandbox\/checkout\/tr_sbx_/);
    const page = await app.server.inject({ url: created.checkout_url ?? "" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Test site: no real payments");
    // The mailbox of a declared test site is there too.
    expect((await app.server.inject({ url: "/dev/mailbox" })).statusCode).toBe(200);
  });
});

describe("a loopback site", () => {
  it("keeps the sandbox and the mailbox without any setting", async () => {
    const app = await startTestApp(database, { listen: false });
    try {
      expect(app.services.sandbox).not.toBeNull();
      expect(app.services.payments.available).toBe(true);
      expect(settingsOf(await app.server.inject({ url: "/api/settings.php" })).purchases_available).toBe(true);
      expect((await app.server.inject({ url: "/dev/mailbox" })).statusCode).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
