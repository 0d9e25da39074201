import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import type { DiscountService } from "./service.ts";

/**
 * The member's usable codes (the checkout's selector) and the time bonus (spec §7's time-bonus load).
 * Checking one code against a bundle (GET /api/discountcode.php) is the payments module's, which knows
 * the bundles and the payment country.
 */
export async function discountRoutes(app: FastifyInstance, { discounts }: { discounts: DiscountService }): Promise<void> {
  handle(app, ENDPOINTS.discountCodes, async ({ member }) => ({ discounts: await discounts.usable(member) }));
  handle(app, ENDPOINTS.timeBonus, async ({ member }) => ({ time_bonus: await discounts.timeBonus(member) }));
}
