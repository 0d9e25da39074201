import { queryOptions } from "@tanstack/react-query";
import { monotonicNow } from "./countdown";
import { DISCOUNTS_KEY } from "./keys";

/**
 * The queries the discount provider runs on every page, apart from api.ts: the API (and the contract's
 * schemas with it) loads with the first call, which a visitor's page never makes (decision 025).
 */
const discountsApi = () => import("./api");

/** GET /api/time-bonus.php (spec §7 "a time-bonus load runs on login"): the bonus or null, with its arrival. */
export const timeBonusQuery = (userId: number) =>
  queryOptions({
    queryKey: [...DISCOUNTS_KEY, "time-bonus", userId],
    queryFn: async () => {
      const value = await (await discountsApi()).getTimeBonus();
      return { value, receivedAt: monotonicNow() };
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
        const value = await (await discountsApi()).getWelcomeDiscount();
        return { value, receivedAt: monotonicNow() };
      } catch {
        return { value: null, receivedAt: monotonicNow() };
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
