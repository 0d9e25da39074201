import { randomUUID } from "node:crypto";
import { paymentCreateResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { sqlRows, type TestMember } from "./factories.ts";
import type { TestApp } from "./harness.ts";

/**
 * `who` buys bundle 3 by iDEAL with a discount code, and the sandbox's side pays it: the provider settles
 * and its webhook arrives. `host` is the app's own (its origin checks). Answers the payment id.
 */
export async function paidWithDiscount(app: TestApp, who: TestMember, code: string): Promise<number> {
  const host = new URL(app.url).host;
  const created = await who.client.post(
    "/api/payment.php",
    { bundle_id: 3, method: "ideal", client_id: randomUUID(), discount_code: code },
    { host },
  );
  expect(created.statusCode, created.body).toBe(200);
  const { payment_id: paymentId } = paymentCreateResponseSchema.parse(created.json());
  const [row] = await sqlRows<{ provider_id: string }>(
    app.services.database.db,
    sql`select provider_id from payments where id = ${paymentId}`,
  );
  await app.services.sandbox?.complete(row?.provider_id ?? "", "paid");
  await app.server.inject({
    method: "POST",
    url: "/hooks/payments/sandbox",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: `id=${row?.provider_id}`,
  });
  return paymentId;
}
