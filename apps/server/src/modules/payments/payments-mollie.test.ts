import { randomUUID } from "node:crypto";
import { paymentCreateResponseSchema, paymentSchema } from "@app/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { acceptUnverifiedTls, type MollieDouble, startMollieDouble } from "./providers/mollie-double.ts";

const API_KEY = "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM";

let database: TestDatabase;
let app: TestApp;
let double: MollieDouble;
let restoreTls: () => void;

// Mollie's double outlives the app (hooks: before in order, after in reverse).
beforeAll(async () => {
  restoreTls = acceptUnverifiedTls();
  double = await startMollieDouble({ apiKey: API_KEY });
});
afterAll(async () => {
  await double?.close();
  restoreTls?.();
});

useTestApp({ env: () => ({ MOLLIE_API_KEY: API_KEY, MOLLIE_API_ENDPOINT: double.url }), seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
});

describe("payments on Mollie (MOLLIE_API_KEY)", () => {
  it("sends the member to Mollie's checkout and credits the bundle once on Mollie's word", async () => {
    expect(app.services.sandbox).toBeNull();
    const buyer = await createMember(app, { activate: true, country: "NL" });
    // Issue #25: a Host naming another port (or another site) must not become Mollie's redirect or
    // webhook URL; they are on the configured origin (here a loopback one: http://localhost:<port>).
    const origin = `http://localhost:${new URL(app.url).port}`;
    const created = paymentCreateResponseSchema.parse(
      (
        await buyer.client.post(
          "/api/payment.php",
          { bundle_id: 1, method: "ideal", client_id: randomUUID() },
          { host: "127.0.0.1:39999" },
        )
      ).json(),
    );
    expect(created.checkout_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//);
    const sent = double.requests.find((r) => r.method === "POST" && r.path === "/v2/payments");
    expect(sent?.body).toMatchObject({
      amount: { currency: "EUR", value: "9.99" },
      method: "ideal",
      sequenceType: "first",
      redirectUrl: `${origin}/transactions/${created.payment_id}`,
      webhookUrl: `${origin}/hooks/payments/mollie`,
      metadata: { payment_id: created.payment_id },
    });
    const providerId = (await app.services.payments.findById(created.payment_id))?.providerId ?? "";
    expect(providerId).toMatch(/^tr_/);
    double.setStatus(providerId, "paid", { consumerName: "A. de Vries", consumerAccount: "NL91ABNA0417164300" });
    // Mollie calls twice; the site asks Mollie each time and credits once.
    expect(await double.sendWebhook(providerId)).toBe(200);
    expect(await double.sendWebhook(providerId)).toBe(200);
    const payment = paymentSchema.parse((await buyer.client.get(`/api/payment.php?id=${created.payment_id}`)).json());
    expect(payment.status).toBe("paid");
    expect(await app.services.credits.account(database.db, buyer.userId)).toEqual({ credits: 20 + 100, paid: true });

    // A chargeback reported by Mollie takes the unspent credits back.
    double.chargeback(providerId, 999);
    expect(await double.sendWebhook(providerId)).toBe(200);
    expect(paymentSchema.parse((await buyer.client.get(`/api/payment.php?id=${created.payment_id}`)).json()).status).toBe(
      "charged_back",
    );
    expect((await app.services.credits.account(database.db, buyer.userId)).credits).toBe(20);
  });
});
