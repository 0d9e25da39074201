import { type DiscountCodeResponse, ENDPOINTS, type PaymentMethod } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import { callEndpoint } from "../../lib/api";
import { DISCOUNTS_KEY } from "./keys";

export { DISCOUNTS_KEY } from "./keys";

/** GET /api/time-bonus.php: the member's time bonus or null. */
export async function getTimeBonus() {
  const { time_bonus } = await callEndpoint(ENDPOINTS.timeBonus);
  return time_bonus;
}

/** GET /api/discountcode.php?welcome=true: the member's welcome discount or null. */
export async function getWelcomeDiscount() {
  const { discount } = await callEndpoint(ENDPOINTS.discountCode, { query: { welcome: "true" } });
  return discount;
}

/** GET /api/discountcodes.php: the codes the member can use now, best first (the checkout's selector). */
export const discountCodesQuery = queryOptions({
  queryKey: [...DISCOUNTS_KEY, "codes"],
  queryFn: () => callEndpoint(ENDPOINTS.discountCodes),
  gcTime: 0,
});

/**
 * GET /api/discountcode.php?code=&bundle_id=&method=: whether `code` applies to this bundle and
 * method, and the price after it. Errors: code_not_found, code_already_used, code_expired,
 * code_minimum_order, code_not_applicable.
 */
export const discountCheckQuery = (code: string, bundleId: number, method: PaymentMethod) =>
  queryOptions({
    queryKey: [...DISCOUNTS_KEY, "check", code, bundleId, method],
    queryFn: (): Promise<DiscountCodeResponse> =>
      callEndpoint(ENDPOINTS.discountCode, { query: { code, bundle_id: bundleId, method } }),
    staleTime: 30_000,
  });
