import { createServer } from "node:net";
import { inspect } from "node:util";
import { FORM_METHODS, PAYMENT_METHODS } from "@app/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatePaymentInput } from "../provider.ts";
import { ProviderError } from "../provider.ts";
import { centsToValue, MollieProvider, mandateLabel, maskAccount, valueToCents } from "./mollie.ts";
import { acceptUnverifiedTls, type MollieDouble, startMollieDouble } from "./mollie-double.ts";

// The shape of a Mollie test key (test_ and 30 characters); the double accepts only this one.
const API_KEY = "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM";

let double: MollieDouble;
let mollie: MollieProvider;
let restoreTls: () => void;

beforeAll(async () => {
  restoreTls = acceptUnverifiedTls();
  double = await startMollieDouble({ apiKey: API_KEY });
  mollie = new MollieProvider({ apiKey: API_KEY, apiEndpoint: double.url });
});

afterAll(async () => {
  await double?.close();
  restoreTls?.();
});

const oneoff = (overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput => ({
  amountCents: 1999,
  currency: "EUR",
  method: "ideal",
  description: "Amoria: 100 credits",
  redirectUrl: "https://amoria.example/transactions/7",
  webhookUrl: "https://amoria.example/hooks/payments/mollie",
  locale: "nl_NL",
  metadata: { payment_id: 7, user_id: 3 },
  sequence: "oneoff",
  ...overrides,
});

/** The body of the last call the double received for a path. */
function lastBody(method: string, path: string | RegExp): unknown {
  const found = double.requests.filter(
    (request) => request.method === method && (typeof path === "string" ? request.path === path : path.test(request.path)),
  );
  const last = found.at(-1);
  if (!last) throw new Error(`the double received no ${method} ${path}`);
  return last.body;
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("payments", () => {
  it("creates a payment with Mollie's amount string and answers the checkout page", async () => {
    const payment = await mollie.createPayment(oneoff());
    expect(payment).toEqual({
      id: expect.stringMatching(/^tr_\w{10}$/),
      status: "open",
      checkoutUrl: `${new URL(double.url).origin}/checkout/select-method/${payment.id.slice(3)}`,
      refundedCents: 0,
      chargedBackCents: 0,
      mandateId: null,
      customerId: null,
      mandateLabel: null,
    });
    expect(lastBody("POST", "/v2/payments")).toEqual({
      amount: { currency: "EUR", value: "19.99" },
      description: "Amoria: 100 credits",
      redirectUrl: "https://amoria.example/transactions/7",
      webhookUrl: "https://amoria.example/hooks/payments/mollie",
      method: "ideal",
      locale: "nl_NL",
      metadata: { payment_id: 7, user_id: 3 },
      sequenceType: "oneoff",
    });
    const sent = double.requests.at(-1);
    expect(sent?.authorization).toBe(`Bearer ${API_KEY}`);
    // The client sends a key with each POST, so its own retries after a 5xx cannot pay twice.
    expect(sent?.idempotencyKey).toMatch(/\S{16,}/);
  });

  it("sends each of our checkout methods under its own id, with amounts in other currencies", async () => {
    // Direct debit is charged through a mandate from the site's form (a recurring payment), never a checkout.
    for (const method of PAYMENT_METHODS.filter((m) => !FORM_METHODS.includes(m))) {
      await mollie.createPayment(oneoff({ method, amountCents: 5, currency: "PLN" }));
      expect(lastBody("POST", "/v2/payments")).toMatchObject({ method, amount: { currency: "PLN", value: "0.05" } });
    }
  });

  it("leaves out a locale Mollie does not know, so the checkout follows the browser", async () => {
    await mollie.createPayment(oneoff({ locale: "en" }));
    expect(lastBody("POST", "/v2/payments")).not.toHaveProperty("locale");
  });

  it.each(["paid", "failed", "expired", "canceled"] as const)(
    "reads a payment the person %s; no checkout page is left",
    async (status) => {
      const { id } = await mollie.createPayment(oneoff());
      double.setStatus(id, status);
      expect(await mollie.getPayment(id)).toMatchObject({ id, status, checkoutUrl: null, refundedCents: 0, chargedBackCents: 0 });
    },
  );

  it.each(["pending", "authorized"] as const)("reads a payment still waiting for the bank (%s)", async (status) => {
    const { id } = await mollie.createPayment(oneoff({ method: "banktransfer" }));
    double.setStatus(id, status);
    expect(await mollie.getPayment(id)).toMatchObject({ status, checkoutUrl: null });
  });

  it("refunds a paid payment with the amount as Mollie's string and reads what was refunded", async () => {
    const { id } = await mollie.createPayment(oneoff({ amountCents: 4999 }));
    double.setStatus(id, "paid");
    await mollie.refundPayment(id, 4999, "EUR");
    expect(lastBody("POST", `/v2/payments/${id}/refunds`)).toEqual({ amount: { currency: "EUR", value: "49.99" } });
    expect(await mollie.getPayment(id)).toMatchObject({ status: "paid", refundedCents: 4999, chargedBackCents: 0 });
  });

  it("reads a partial refund and a chargeback in cents", async () => {
    const { id } = await mollie.createPayment(oneoff({ amountCents: 1000 }));
    double.setStatus(id, "paid");
    await mollie.refundPayment(id, 10, "EUR");
    double.chargeback(id, 990);
    expect(await mollie.getPayment(id)).toMatchObject({ status: "paid", refundedCents: 10, chargedBackCents: 990 });
  });

  it("turns Mollie's refusal of a refund into a ProviderError naming the reason", async () => {
    const { id } = await mollie.createPayment(oneoff());
    const open = await failureOf(mollie.refundPayment(id, 1999, "EUR"));
    expect(open.message).toMatch(/\(422\): The payment is not refundable/);
    double.setStatus(id, "paid");
    await mollie.refundPayment(id, 1999, "EUR");
    const twice = await failureOf(mollie.refundPayment(id, 1999, "EUR"));
    expect(twice.message).toMatch(/\(422\): The amount is higher than the amount that can be refunded \[field amount\]/);
  });
});

describe("repeat orders: customers, first payments and mandates", () => {
  it("creates a customer with the member's name, e-mail and language", async () => {
    const customerId = await mollie.createCustomer({ name: "Ann Smith", email: "ann@example.com", locale: "de_DE" });
    expect(customerId).toMatch(/^cst_\w{10}$/);
    expect(lastBody("POST", "/v2/customers")).toEqual({ name: "Ann Smith", email: "ann@example.com", locale: "de_DE" });
  });

  it("a paid first card payment leaves a mandate; a recurring payment charges it without a checkout page", async () => {
    const customerId = await mollie.createCustomer({ name: "Ann Smith", email: "ann@example.com", locale: "nl_NL" });
    const first = await mollie.createPayment(oneoff({ method: "creditcard", sequence: "first", customerId }));
    expect(first).toMatchObject({ status: "open", customerId, mandateId: null, checkoutUrl: expect.any(String) });
    expect(lastBody("POST", "/v2/payments")).toMatchObject({ sequenceType: "first", customerId, method: "creditcard" });

    double.setStatus(first.id, "paid", { cardLabel: "Visa", cardNumber: "4242", cardHolder: "A. Smith" });
    const paid = await mollie.getPayment(first.id);
    expect(paid).toMatchObject({
      status: "paid",
      customerId,
      mandateId: expect.stringMatching(/^mdt_/),
      mandateLabel: "Visa •••• 4242",
    });
    expect(double.mandates(customerId)).toMatchObject([{ id: paid.mandateId, method: "creditcard", status: "valid" }]);

    const repeat = await mollie.createPayment(
      oneoff({ method: "creditcard", sequence: "recurring", customerId, mandateId: paid.mandateId ?? undefined }),
    );
    expect(repeat).toMatchObject({ status: "pending", checkoutUrl: null, customerId, mandateId: paid.mandateId });
    const body = lastBody("POST", "/v2/payments");
    expect(body).toMatchObject({ sequenceType: "recurring", customerId, mandateId: paid.mandateId, amount: { value: "19.99" } });
    // Charged with the mandate's method and without a browser to send back.
    expect(body).not.toHaveProperty("method");
    expect(body).not.toHaveProperty("redirectUrl");
    double.setStatus(repeat.id, "paid");
    expect(await mollie.getPayment(repeat.id)).toMatchObject({ status: "paid", mandateId: paid.mandateId });
  });

  it("a paid first iDEAL payment's mandate is the paying account, shown masked", async () => {
    const customerId = await mollie.createCustomer({ name: "Bob de Vries", email: "bob@example.com", locale: "nl_NL" });
    const first = await mollie.createPayment(oneoff({ method: "ideal", sequence: "first", customerId }));
    double.setStatus(first.id, "paid", {
      consumerName: "B. de Vries",
      consumerAccount: "NL91ABNA0417164300",
      consumerBic: "ABNANL2A",
    });
    const paid = await mollie.getPayment(first.id);
    expect(paid.mandateLabel).toBe("NL•• •••• 4300");
    expect(double.mandates(customerId)).toMatchObject([{ id: paid.mandateId, method: "directdebit" }]);
    // A repeat order sends no "ideal" (not a recurring method): Mollie charges the directdebit mandate.
    const repeat = await mollie.createPayment(
      oneoff({ sequence: "recurring", customerId, mandateId: paid.mandateId ?? undefined }),
    );
    expect(double.payment(repeat.id).method).toBe("directdebit");
  });

  it("a paid first PayPal payment is labelled with the PayPal account's e-mail", async () => {
    const customerId = await mollie.createCustomer({ name: "Cleo", email: "cleo@example.com", locale: "fr_FR" });
    const first = await mollie.createPayment(oneoff({ method: "paypal", sequence: "first", customerId }));
    double.setStatus(first.id, "paid", { consumerName: "Cleo", consumerAccount: "cleo@example.com" });
    expect(await mollie.getPayment(first.id)).toMatchObject({ mandateLabel: "cleo@example.com", mandateId: expect.any(String) });
  });

  it("creates a direct-debit mandate from the site's form and charges it", async () => {
    const customerId = await mollie.createCustomer({ name: "Dirk Peeters", email: "dirk@example.com", locale: "nl_BE" });
    const { mandateId } = await mollie.createDirectDebitMandate({
      customerId,
      name: "Dirk Peeters",
      iban: "be68 5390 0754 7034",
    });
    expect(mandateId).toMatch(/^mdt_\w{10}$/);
    expect(lastBody("POST", `/v2/customers/${customerId}/mandates`)).toEqual({
      method: "directdebit",
      consumerName: "Dirk Peeters",
      consumerAccount: "BE68539007547034",
    });
    expect(double.mandates(customerId)).toMatchObject([{ id: mandateId, method: "directdebit", status: "valid" }]);

    const payment = await mollie.createPayment(oneoff({ method: "directdebit", sequence: "recurring", customerId, mandateId }));
    expect(payment).toMatchObject({ status: "pending", checkoutUrl: null, mandateId, customerId });
    double.setStatus(payment.id, "paid", { consumerName: "Dirk Peeters", consumerAccount: "BE68539007547034" });
    expect(await mollie.getPayment(payment.id)).toMatchObject({ status: "paid", mandateLabel: "BE•• •••• 7034" });
  });

  it("refuses a mandate for an invalid IBAN and a recurring payment with another customer's mandate", async () => {
    const customerId = await mollie.createCustomer({ name: "Eve", email: "eve@example.com", locale: "en_GB" });
    const iban = await failureOf(mollie.createDirectDebitMandate({ customerId, name: "Eve", iban: "NL00ABNA0417164300" }));
    expect(iban.message).toMatch(/\(422\): The consumer account is invalid \[field consumerAccount\]/);

    const other = await mollie.createCustomer({ name: "Fay", email: "fay@example.com", locale: "en_GB" });
    const { mandateId } = await mollie.createDirectDebitMandate({ customerId: other, name: "Fay", iban: "NL91ABNA0417164300" });
    const foreign = await failureOf(mollie.createPayment(oneoff({ sequence: "recurring", customerId, mandateId })));
    expect(foreign.message).toMatch(/\[field mandateId\]/);
  });
});

describe("failures become ProviderError", () => {
  it("a wrong API key: Mollie's 401, without the key in the message", async () => {
    const wrongKey = "test_WrongWrongWrongWrongWrongWr";
    const stranger = new MollieProvider({ apiKey: wrongKey, apiEndpoint: double.url });
    const error = await failureOf(stranger.createPayment(oneoff()));
    expect(error.message).toBe("Mollie create payment failed (401): Missing authentication, or failed to authenticate");
    expect(error.message).not.toContain(wrongKey);
    expect(inspect(error, { depth: 10 })).not.toContain(wrongKey);
    expect(double.requests.at(-1)?.authorization).toBe(`Bearer ${wrongKey}`);
  });

  it("a method Mollie does not know: its 422 with the field", async () => {
    const error = await failureOf(mollie.createPayment(oneoff({ method: "sofort" as CreatePaymentInput["method"] })));
    expect(error.message).toBe("Mollie create payment failed (422): The payment method is invalid [field method]");
  });

  it("an amount that is not whole cents never reaches Mollie", async () => {
    const before = double.requests.length;
    for (const amountCents of [19.99, -100, Number.NaN]) {
      const error = await failureOf(mollie.createPayment(oneoff({ amountCents })));
      expect(error.message).toMatch(/Not an amount in whole cents/);
    }
    expect(double.requests.length).toBe(before);
  });

  it("an unknown payment: Mollie's 404", async () => {
    const error = await failureOf(mollie.getPayment("tr_doesnotexi"));
    expect(error.message).toBe("Mollie get payment failed (404): No payment exists with token tr_doesnotexi.");
  });

  it("an outage: the client's retries, then a ProviderError", async () => {
    const before = double.requests.length;
    double.outage(503);
    try {
      const error = await failureOf(mollie.getPayment("tr_doesnotexi"));
      expect(error.message).toMatch(/\(503\)/);
    } finally {
      double.outage(null);
    }
    // One attempt and the client's two retries.
    expect(double.requests.length - before).toBe(3);
  });

  it("Mollie out of reach: a ProviderError naming the call", async () => {
    const port = await closedPort();
    const unreachable = new MollieProvider({ apiKey: API_KEY, apiEndpoint: `https://127.0.0.1:${port}/v2/` });
    const error = await failureOf(unreachable.getPayment("tr_doesnotexi"));
    expect(error.message).toMatch(/^Mollie get payment failed: .*ECONNREFUSED/);
    expect(error.message).not.toContain(API_KEY);
  });
});

describe("money and labels", () => {
  it("writes cents as Mollie's two-decimal strings", () => {
    expect(centsToValue(1999)).toBe("19.99");
    expect(centsToValue(10)).toBe("0.10");
    expect(centsToValue(5)).toBe("0.05");
    expect(centsToValue(0)).toBe("0.00");
    expect(centsToValue(100)).toBe("1.00");
    expect(centsToValue(123456789)).toBe("1234567.89");
    for (const bad of [19.99, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => centsToValue(bad)).toThrow(ProviderError);
    }
  });

  it("reads Mollie's strings as cents without floating-point error", () => {
    expect(valueToCents("19.99")).toBe(1999);
    expect(valueToCents("0.10")).toBe(10);
    expect(valueToCents("0.29")).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(valueToCents("1.1")).toBe(110);
    expect(valueToCents("7")).toBe(700);
    expect(valueToCents("1234567.89")).toBe(123456789);
    for (const bad of ["", "abc", "1.005", "-1.00", "1,00", " 1.00", "1.", ".50", "1e3", "99999999999999999.00"]) {
      expect(() => valueToCents(bad)).toThrow(ProviderError);
    }
  });

  it("round-trips every amount up to 1,000.00", () => {
    for (let cents = 0; cents <= 100_000; cents++) {
      if (valueToCents(centsToValue(cents)) !== cents) throw new Error(`${cents} → ${centsToValue(cents)}`);
    }
  });

  it("names cards, accounts and PayPal the way the member's page shows them", () => {
    expect(mandateLabel("creditcard", { cardLabel: "Mastercard", cardNumber: "5555" })).toBe("Mastercard •••• 5555");
    expect(mandateLabel("creditcard", { cardLabel: null, cardNumber: "4242" })).toBe("•••• 4242");
    expect(mandateLabel("applepay", { cardNumber: "4242" })).toBe("Apple Pay •••• 4242");
    expect(mandateLabel("directdebit", { consumerAccount: "DE89 3704 0044 0532 0130 00" })).toBe("DE•• •••• 3000");
    expect(mandateLabel("banktransfer", { consumerAccount: "NL91ABNA0417164300" })).toBe("NL•• •••• 4300");
    expect(mandateLabel("paypal", { consumerAccount: "ann@example.com" })).toBe("ann@example.com");
    expect(mandateLabel("creditcard", null)).toBeNull();
    expect(mandateLabel("creditcard", { cardLabel: "Visa" })).toBeNull();
    expect(mandateLabel("paysafecard", { customerReference: "x" })).toBeNull();
    expect(maskAccount("123456789")).toBe("•••• 6789");
  });
});

/** A port on 127.0.0.1 that nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
