import { bundlesResponseSchema, type StaffBundle, type StaffDiscount } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createMember, sqlCount, sqlRows } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { paidWithDiscount } from "../../test/payments.ts";
import { staffLogin } from "../../test/staff.ts";

let database: TestDatabase;
let app: TestApp;
let host: string;

useTestApp({ env: { GEOIP_HEADER: "x-country" }, seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
  host = new URL(app.url).host;
});

const audits = (action: string) =>
  sqlCount(database.db, sql`select count(*)::int as n from staff_audit where action = ${action}`);

const newCode = (code: string, extra: Record<string, unknown> = {}) => ({
  code,
  value_percentage: 15,
  validity: "once_per_member",
  expires_at: null,
  country: null,
  currency: null,
  minimum_order_cents: null,
  payment_methods: null,
  first_purchase_only: false,
  user_id: null,
  ...extra,
});

describe("discount codes in the staff console (support; admin implicit)", () => {
  it("creates a code, lists it with its uses, shows who redeemed it, and ends it; each write audited", async () => {
    const support = await staffLogin(app, "support");
    const before = await audits("discount.create");
    const created = await support.client.post("/staff/api/discounts", newCode(" autumn15 ", { currency: "EUR" }));
    expect(created.statusCode, created.body).toBe(200);
    const discount = created.json().discount as StaffDiscount;
    expect(discount).toMatchObject({ code: "AUTUMN15", kind: "code", value_percentage: 15, redeemed: 0, expired: false });
    expect(await audits("discount.create")).toBe(before + 1);

    // The bundle's purchases before (the seed's premium demo account bought bundle 3 too).
    const bundlePurchases = async () =>
      ((await support.client.get("/staff/api/discounts")).json().bundles as StaffBundle[]).find((row) => row.id === 3)
        ?.purchases ?? 0;
    const purchasesBefore = await bundlePurchases();
    const anna = await createMember(app, { activate: true, country: "NL" });
    const paymentId = await paidWithDiscount(app, anna, "autumn15");
    const list = await support.client.get("/staff/api/discounts");
    expect(list.statusCode).toBe(200);
    expect((list.json().discounts as StaffDiscount[]).find((row) => row.id === discount.id)).toMatchObject({
      redeemed: 1,
      reserved: 0,
    });
    // The bundle it bought counts the purchase.
    expect((list.json().bundles as StaffBundle[]).find((row) => row.id === 3)?.purchases).toBe(purchasesBefore + 1);
    const uses = await support.client.get(`/staff/api/discounts/${discount.id}/redemptions`);
    expect(uses.json().redemptions).toEqual([
      expect.objectContaining({
        user_id: anna.userId,
        payment_id: paymentId,
        status: "redeemed",
        redeemed_at: expect.any(String),
      }),
    ]);

    const expired = await support.client.post(`/staff/api/discounts/${discount.id}/expire`, {});
    expect(expired.statusCode, expired.body).toBe(200);
    expect(expired.json().discount).toMatchObject({ expired: true, expires_at: expect.any(String) });
    const [audit] = await sqlRows<{ before: unknown; after: { expires_at: string } }>(
      database.db,
      sql`select before, after from staff_audit where action = 'discount.expire' and object_id = ${String(discount.id)}`,
    );
    expect(audit?.before).toEqual({ expires_at: null });
    expect(audit?.after.expires_at).toBe(expired.json().discount.expires_at);
    // A member can no longer use it.
    const bob = await createMember(app, { activate: true, country: "NL" });
    const check = await bob.client.get("/api/discountcode.php?code=AUTUMN15", { host });
    expect(check.json().error).toBe("code_expired");
  });

  it("refuses a taken name, bad input and an end date in the past, writing nothing", async () => {
    const support = await staffLogin(app, "support", "fr");
    expect((await support.client.post("/staff/api/discounts", newCode("WINTER5"))).statusCode).toBe(200);
    const codes = await sqlCount(database.db, sql`select count(*)::int as n from discount_codes`);
    const before = await audits("discount.create");

    const taken = await support.client.post("/staff/api/discounts", newCode("winter5", { value_percentage: 50 }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      error: "discount_code_taken",
      message: "Un code de réduction portant ce nom existe déjà.",
    });
    const bad = await support.client.post("/staff/api/discounts", newCode("X", { value_percentage: 0, validity: "sometimes" }));
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().fields).sort()).toEqual(["code", "validity", "value_percentage"]);
    expect(bad.json().fields.value_percentage).toBe("Cette valeur n’est pas valide.");
    const past = await support.client.post("/staff/api/discounts", newCode("PAST10", { expires_at: "2020-01-01T00:00:00Z" }));
    expect(past.statusCode).toBe(422);
    expect(Object.keys(past.json().fields)).toEqual(["expires_at"]);
    const nobody = await support.client.post("/staff/api/discounts", newCode("NOBODY10", { user_id: 999999 }));
    expect(nobody.statusCode).toBe(422);
    expect(Object.keys(nobody.json().fields)).toEqual(["user_id"]);

    expect(await sqlCount(database.db, sql`select count(*)::int as n from discount_codes`)).toBe(codes);
    expect(await audits("discount.create")).toBe(before);
    // Ending a code that does not exist: 404, no audit row.
    const expires = await audits("discount.expire");
    expect((await support.client.post("/staff/api/discounts/999999/expire", {})).statusCode).toBe(404);
    expect(await audits("discount.expire")).toBe(expires);
  });

  it("is refused to moderators and operators (403) and to a member (404)", async () => {
    for (const role of ["moderator", "operator"] as const) {
      const staff = await staffLogin(app, role);
      expect((await staff.client.get("/staff/api/discounts")).statusCode).toBe(403);
      expect((await staff.client.post("/staff/api/discounts", newCode(`NO${role.toUpperCase()}`))).statusCode).toBe(403);
    }
    const member = await createMember(app, { activate: true });
    expect((await member.client.get("/staff/api/discounts")).statusCode).toBe(404);
    expect(await sqlCount(database.db, sql`select count(*)::int as n from discount_codes where code like 'NO%'`)).toBe(0);
  });

  it("writes a code and its audit row in one transaction: a failed audit leaves no code", async () => {
    const support = await staffLogin(app, "support");
    await expect(
      app.services.staff.audited(
        { staff: support.staff, address: null },
        () => ({ action: "discount.create", objectType: "discount", objectId: 0, after: { bad: 1n } }),
        (tx) =>
          app.services.discounts.admin.create(tx, {
            ...newCode("LOST20"),
            validity: "once",
          } as Parameters<typeof app.services.discounts.admin.create>[1]),
      ),
    ).rejects.toThrow();
    expect(await sqlCount(database.db, sql`select count(*)::int as n from discount_codes where code = 'LOST20'`)).toBe(0);
  });
});

describe("credit bundles in the staff console", () => {
  const offered = async (currency = "NL") => {
    const response = await app.server.inject({ url: "/api/bundles.php", headers: { "x-country": currency } });
    return bundlesResponseSchema.parse(response.json()).bundles;
  };

  it("adds a bundle that is offered at once with its price, best value moved to it; retiring stops the offer; both audited", async () => {
    const admin = await staffLogin(app, "admin");
    const created = await admin.client.post("/staff/api/bundles", {
      credits: 777,
      prices: { EUR: 5555, PLN: 23900 },
      best_value: true,
    });
    expect(created.statusCode, created.body).toBe(200);
    const bundle = created.json().bundle as StaffBundle;
    expect(bundle).toMatchObject({ credits: 777, active: true, best_value: true, prices: { EUR: 5555, PLN: 23900 } });
    const dutch = await offered("NL");
    expect(dutch.find((row) => row.credits === 777)).toMatchObject({ price: 55.55, best_value: true });
    expect(dutch.filter((row) => row.best_value)).toHaveLength(1);
    expect(await audits("bundle.create")).toBe(1);

    const retired = await admin.client.post(`/staff/api/bundles/${bundle.id}/retire`, {});
    expect(retired.statusCode, retired.body).toBe(200);
    expect(retired.json().bundle).toMatchObject({ id: bundle.id, active: false });
    expect((await offered("NL")).map((row) => row.credits)).not.toContain(777);
    expect(await audits("bundle.retire")).toBe(1);

    const list = await admin.client.get("/staff/api/discounts");
    expect((list.json().bundles as StaffBundle[]).find((row) => row.id === bundle.id)).toMatchObject({ active: false });
  });

  it("refuses a bundle without a price or with a bad currency, writing nothing", async () => {
    const support = await staffLogin(app, "support");
    const count = await sqlCount(database.db, sql`select count(*)::int as n from credit_bundles`);
    for (const body of [
      { credits: 100, prices: {}, best_value: false },
      { credits: 100, prices: { euro: 100 }, best_value: false },
      { credits: 0, prices: { EUR: 100 }, best_value: false },
    ]) {
      const response = await support.client.post("/staff/api/bundles", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect(await sqlCount(database.db, sql`select count(*)::int as n from credit_bundles`)).toBe(count);
    expect((await support.client.post("/staff/api/bundles/999999/retire", {})).statusCode).toBe(404);
  });
});
