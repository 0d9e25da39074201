import { type DiscountCodeResponse, ENDPOINTS, type PaymentMethod } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import { callEndpoint } from "../../lib/api";
import { monotonicNow } from "./countdown";

/**
 * Query keys of the discounts feature (decision 013). Everything is the member's own and is dropped
 * on logout (`DISCOUNTS_KEY`); the time bonus and the welcome discount are loaded once per member and
 * tick down in the browser from the moment they arrived.
 */
export const DISCOUNTS_KEY = ["discounts"] as const;

/** GET /api/time-bonus.php (spec §7 "a time-bonus load runs on login"): the bonus or null, with its arrival. */
export const timeBonusQuery = (userId: number) =>
  queryOptions({
    queryKey: [...DISCOUNTS_KEY, "time-bonus", userId],
    queryFn: async () => {
      const { time_bonus } = await callEndpoint(ENDPOINTS.timeBonus);
      return { value: time_bonus, receivedAt: monotonicNow() };
    },
    staleTime: Number.POSITIVE_INFINITY,
  });

/**
 * GET /api/discountcode.php?welcome=true: the member's welcome discount or null. Spec §7/§8: a failed
 * load is ignored (no discount shown), so a failure answers null here.
 */
export const welcomeDiscountQuery = (userId: number) =>
  queryOptions({
    queryKey: [...DISCOUNTS_KEY, "welcome", userId],
    queryFn: async () => {
      try {
        const { discount } = await callEndpoint(ENDPOINTS.discountCode, { query: { welcome: "true" } });
        return { value: discount, receivedAt: monotonicNow() };
      } catch {
        return { value: null, receivedAt: monotonicNow() };
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  });

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
