import { randomUUID } from "node:crypto";
import {
  discountCodeResponseSchema,
  discountCodesResponseSchema,
  paymentCreateResponseSchema,
  paymentSchema,
  timeBonusResponseSchema,
} from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createMember, sqlCount, sqlRows, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";

let database: TestDatabase;
let app: TestApp;
let host: string;

useTestApp({ env: { GEOIP_HEADER: "x-country" }, seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
  host = new URL(app.url).host;
});

const member = (options: Parameters<typeof createMember>[1] = {}) =>
  createMember(app, { activate: true, country: "NL", ...options });

/** Moves a member's signup back by `seconds`. */
const signedUpAgo = (who: TestMember, seconds: number) =>
  database.db.execute(sql`update users set signup_date = now() - make_interval(secs => ${seconds}) where id = ${who.userId}`);

const check = (who: TestMember, query: string, headers: Record<string, string> = {}) =>
  who.client.get(`/api/discountcode.php?${query}`, headers);

const pay = (who: TestMember, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  who.client.post("/api/payment.php", { bundle_id: 3, method: "ideal", client_id: randomUUID(), ...body }, { host, ...headers });

const providerIdOf = async (paymentId: number) =>
  (await sqlRows<{ provider_id: string }>(database.db, sql`select provider_id from payments where id = ${paymentId}`))[0]
    ?.provider_id ?? "";

/** The provider's side settles and its webhook arrives. */
async function settle(paymentId: number, outcome: "paid" | "failed" | "canceled" | "expired") {
  const providerId = await providerIdOf(paymentId);
  await app.services.sandbox?.complete(providerId, outcome);
  await app.server.inject({
    method: "POST",
    url: "/hooks/payments/sandbox",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: `id=${providerId}`,
  });
}

describe("checking a code (spec §5)", () => {
  it("answers the discount and the bundle's discounted price, or the spec's errors", async () => {
    const anna = await member();
    const ok = discountCodeResponseSchema.parse((await check(anna, "code=spring10&bundle_id=3&method=ideal")).json());
    expect(ok.discount).toMatchObject({ code: "SPRING10", kind: "code", value_percentage: 10, validity: "once_per_member" });
    expect(ok.price).toEqual({ original: 39.99, discounted: 35.99, currency: "EUR" });

    const notFound = await check(anna, "code=NOPE");
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toMatchObject({ error: "code_not_found", message: "Code not found" });
    expect((await check(anna, "code=SUMMER30")).json().error).toBe("code_expired");
    // A minimum order: the 500-credit bundle (€39.99) qualifies, the 100-credit one (€9.99) does not.
    expect((await check(anna, "code=BIG20&bundle_id=3")).statusCode).toBe(200);
    expect((await check(anna, "code=BIG20&bundle_id=1")).json()).toMatchObject({
      error: "code_minimum_order",
      message: expect.stringMatching(/39\.99/),
    });
    // A country-limited code: in the Netherlands yes, paying from Poland no.
    expect((await check(anna, "code=HOLLAND15&bundle_id=3")).statusCode).toBe(200);
    expect((await check(anna, "code=HOLLAND15&bundle_id=3", { "x-country": "PL" })).json().error).toBe("code_not_applicable");
  });

  it("answers spec §3's fields user_id, status and expired with each code", async () => {
    const anna = await member();
    await app.services.discounts.add([{ code: `OWN-${anna.userId}`, valuePercentage: 12, userId: anna.userId }]);
    // The raw answer, not a parse of it: a field the server left out must show here.
    expect((await check(anna, "code=spring10&bundle_id=3&method=ideal")).json().discount).toMatchObject({
      code: "SPRING10",
      user_id: null,
      status: "active",
      expired: false,
      expires: null,
    });
    expect((await check(anna, `code=own-${anna.userId}`)).json().discount).toMatchObject({
      user_id: anna.userId,
      status: "active",
      expired: false,
    });
    const listed = (await anna.client.get("/api/discountcodes.php")).json().discounts as Record<string, unknown>[];
    expect(listed.find((d) => d.code === `OWN-${anna.userId}`)).toMatchObject({
      user_id: anna.userId,
      status: "active",
      expired: false,
    });
    for (const discount of listed)
      expect(Object.keys(discount)).toEqual(expect.arrayContaining(["user_id", "status", "expired"]));
  });

  it("limits codes to payment methods, currencies and their member, and first-purchase codes to free members", async () => {
    const anna = await member();
    const other = await member();
    await app.services.discounts.add([
      { code: "IDEALONLY", valuePercentage: 5, paymentMethods: ["ideal"], validity: "unlimited" },
      { code: "ZLOTY5", valuePercentage: 5, currency: "PLN", validity: "unlimited" },
      { code: `ANNA-${anna.userId}`, valuePercentage: 12, userId: anna.userId },
      { code: "NEWBIE", valuePercentage: 8, firstPurchaseOnly: true },
    ]);
    expect((await check(anna, "code=IDEALONLY&bundle_id=3&method=ideal")).statusCode).toBe(200);
    expect((await check(anna, "code=IDEALONLY&bundle_id=3&method=creditcard")).json().error).toBe("code_not_applicable");
    expect((await check(anna, "code=ZLOTY5&bundle_id=3")).json().error).toBe("code_not_applicable");
    expect((await check(anna, `code=ANNA-${anna.userId}`)).statusCode).toBe(200);
    expect((await check(other, `code=ANNA-${anna.userId}`)).json().error).toBe("code_not_found");
    const premium = await member({ paid: true });
    expect((await check(premium, "code=NEWBIE")).json().error).toBe("code_not_applicable");
    // Her own code is in her selector, and not in anyone else's.
    const mine = discountCodesResponseSchema.parse((await anna.client.get("/api/discountcodes.php")).json());
    expect(mine.discounts.map((d) => d.code)).toContain(`ANNA-${anna.userId}`);
    const theirs = discountCodesResponseSchema.parse((await other.client.get("/api/discountcodes.php")).json());
    expect(theirs.discounts.map((d) => d.code)).not.toContain(`ANNA-${anna.userId}`);
  });
});

describe("a discounted payment", () => {
  it("charges the provider the discounted amount and uses the code up only when paid", async () => {
    const anna = await member();
    const first = paymentCreateResponseSchema.parse((await pay(anna, { discount_code: "spring10" })).json());
    const [atProvider] = await sqlRows<{ amount_cents: number }>(
      database.db,
      sql`select amount_cents from sandbox_payments where id = ${await providerIdOf(first.payment_id)}`,
    );
    expect(atProvider?.amount_cents).toBe(3599);
    const shown = paymentSchema.parse((await anna.client.get(`/api/payment.php?id=${first.payment_id}`)).json());
    expect(shown).toMatchObject({ amount: 35.99, discount: { code: "SPRING10", value_percentage: 10, original_amount: 39.99 } });

    // Cancelled: the code is free again.
    await settle(first.payment_id, "canceled");
    const second = paymentCreateResponseSchema.parse((await pay(anna, { discount_code: "SPRING10" })).json());
    await settle(second.payment_id, "paid");
    expect(await app.services.credits.account(database.db, anna.userId)).toEqual({ credits: 20 + 500, paid: true });
    const again = await pay(anna, { discount_code: "SPRING10" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: "code_already_used", message: "Code already used" });
    expect((await check(anna, "code=SPRING10")).json().error).toBe("code_already_used");
    expect(
      await sqlCount(
        database.db,
        sql`select count(*)::int as n from discount_redemptions where user_id = ${anna.userId} and status = 'redeemed'`,
      ),
    ).toBe(1);
  });

  it("gives a once-per-member code to one of several payments made at the same moment", async () => {
    const anna = await member();
    const answers = await Promise.all(Array.from({ length: 6 }, () => pay(anna, { discount_code: "SPRING10" })));
    const made = answers.filter((a) => a.statusCode === 200);
    expect(made).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409).map((a) => a.json().error)).toEqual(Array(5).fill("code_already_used"));
    // The refused ones left no payment behind.
    expect(await sqlCount(database.db, sql`select count(*)::int as n from payments where user_id = ${anna.userId}`)).toBe(1);
    const { payment_id } = paymentCreateResponseSchema.parse(made[0]?.json());
    await settle(payment_id, "paid");
    expect(await app.services.credits.account(database.db, anna.userId)).toEqual({ credits: 20 + 500, paid: true });
  });

  it("lets a new payment take the code over from a checkout abandoned more than 15 minutes ago", async () => {
    const anna = await member();
    const abandoned = paymentCreateResponseSchema.parse((await pay(anna, { discount_code: "SPRING10" })).json());
    expect((await pay(anna, { discount_code: "SPRING10" })).json().error).toBe("code_already_used");
    await database.db.execute(
      sql`update discount_redemptions set created_at = now() - interval '16 minutes' where payment_id = ${abandoned.payment_id}`,
    );
    expect((await pay(anna, { discount_code: "SPRING10" })).statusCode).toBe(200);
  });

  it("refuses a payment with a code that does not apply, and makes none", async () => {
    const anna = await member();
    expect((await pay(anna, { bundle_id: 1, discount_code: "BIG20" })).json().error).toBe("code_minimum_order");
    expect((await pay(anna, { discount_code: "NOPE" })).json().error).toBe("code_not_found");
    expect(await sqlCount(database.db, sql`select count(*)::int as n from payments where user_id = ${anna.userId}`)).toBe(0);
  });
});

describe("'Try again' after a failed payment (issue #29)", () => {
  const retry = (who: TestMember, paymentId: number, clientId = randomUUID()) =>
    who.client.post("/api/payment-retry.php", { payment_id: paymentId, client_id: clientId }, { host });
  const rowOf = async (paymentId: number) =>
    (
      await sqlRows<{ bundle_id: number; method: string; amount_cents: number; discount_code: string | null; status: string }>(
        database.db,
        sql`select bundle_id, method, amount_cents, discount_code, status from payments where id = ${paymentId}`,
      )
    )[0];

  it("makes a new payment of the same bundle, method and code, which the member can pay", async () => {
    const anna = await member();
    const failed = paymentCreateResponseSchema.parse(
      (await pay(anna, { method: "creditcard", discount_code: "spring10" })).json(),
    );
    await settle(failed.payment_id, "failed");

    const clientId = randomUUID();
    const answer = await retry(anna, failed.payment_id, clientId);
    expect(answer.statusCode, answer.body).toBe(200);
    const again = paymentCreateResponseSchema.parse(answer.json());
    expect(again.payment_id).not.toBe(failed.payment_id);
    expect(again.checkout_url).toMatch(/\/sandbox\/checkout\/tr_sbx_/);
    expect(await rowOf(again.payment_id)).toMatchObject({
      bundle_id: 3,
      method: "creditcard",
      amount_cents: 3599,
      discount_code: "SPRING10",
      status: "pending",
    });
    // A double click is one retry.
    expect(paymentCreateResponseSchema.parse((await retry(anna, failed.payment_id, clientId)).json()).payment_id).toBe(
      again.payment_id,
    );
    await settle(again.payment_id, "paid");
    expect(await app.services.credits.account(database.db, anna.userId)).toEqual({ credits: 20 + 500, paid: true });
    // A paid order is not tried again, and neither is another member's.
    expect((await retry(anna, again.payment_id)).json()).toMatchObject({ error: "payment_not_retryable" });
    const other = await member();
    expect((await retry(other, failed.payment_id)).statusCode).toBe(404);
  });

  it("refuses an open order, and says so when the order's code no longer applies", async () => {
    const anna = await member();
    const open = paymentCreateResponseSchema.parse((await pay(anna, {})).json());
    expect((await retry(anna, open.payment_id)).statusCode).toBe(409);
    await settle(open.payment_id, "expired");
    expect((await retry(anna, open.payment_id)).statusCode).toBe(200);

    const bob = await member();
    const cancelled = paymentCreateResponseSchema.parse((await pay(bob, { discount_code: "BIG20" })).json());
    await settle(cancelled.payment_id, "canceled");
    await database.db.execute(sql`update discount_codes set expires_at = now() - interval '1 minute' where code = 'BIG20'`);
    try {
      expect((await retry(bob, cancelled.payment_id)).json()).toMatchObject({ error: "code_expired" });
      expect(await sqlCount(database.db, sql`select count(*)::int as n from payments where user_id = ${bob.userId}`)).toBe(1);
    } finally {
      await database.db.execute(sql`update discount_codes set expires_at = null where code = 'BIG20'`);
    }
  });
});

describe("the time bonus and the welcome discount (spec §4, §9)", () => {
  const timeBonus = async (who: TestMember) =>
    timeBonusResponseSchema.parse((await who.client.get("/api/time-bonus.php")).json()).time_bonus;

  it("exists for a free member in the first 14400 s after signup, and not a second later", async () => {
    const fresh = await member();
    await signedUpAgo(fresh, 14_399);
    expect(await timeBonus(fresh)).toEqual({ code: "TIMEBONUS25", value_percentage: 25, seconds_left: 1 });
    await signedUpAgo(fresh, 14_401);
    expect(await timeBonus(fresh)).toBeNull();
    expect((await check(fresh, "code=TIMEBONUS25")).json().error).toBe("code_expired");

    const newer = await member();
    await signedUpAgo(newer, 100);
    expect((await timeBonus(newer))?.seconds_left).toBe(14_300);
    const premium = await member({ paid: true });
    expect(await timeBonus(premium)).toBeNull();
  });

  it("takes 25% off with TIMEBONUS25 and is gone once bought; the welcome discount follows the time bonus", async () => {
    const anna = await member();
    const selector = discountCodesResponseSchema.parse((await anna.client.get("/api/discountcodes.php")).json());
    expect(selector.discounts[0]).toMatchObject({ code: "TIMEBONUS25", kind: "time_bonus", value_percentage: 25 });
    const welcome = discountCodeResponseSchema.parse((await check(anna, "welcome=true")).json());
    expect(welcome.discount).toMatchObject({ code: "WELCOME25", kind: "welcome", value_percentage: 25 });
    expect(welcome.discount?.seconds_left).toBeGreaterThan(47 * 3600);

    const bought = paymentCreateResponseSchema.parse((await pay(anna, { discount_code: "TIMEBONUS25" })).json());
    expect(paymentSchema.parse((await anna.client.get(`/api/payment.php?id=${bought.payment_id}`)).json()).amount).toBe(29.99);
    await settle(bought.payment_id, "paid");
    expect(await timeBonus(anna)).toBeNull();
    // Premium now: first-purchase discounts are over.
    expect(discountCodeResponseSchema.parse((await check(anna, "welcome=true")).json()).discount).toBeNull();
    expect((await check(anna, "code=WELCOME25")).json().error).toBe("code_not_applicable");

    const later = await member();
    await signedUpAgo(later, 5 * 3600);
    expect(await timeBonus(later)).toBeNull();
    expect(discountCodeResponseSchema.parse((await check(later, "welcome=true")).json()).discount?.code).toBe("WELCOME25");
    await signedUpAgo(later, 49 * 3600);
    expect(discountCodeResponseSchema.parse((await check(later, "welcome=true")).json()).discount).toBeNull();
  });
});
