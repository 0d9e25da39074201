import { z } from "zod";
import { idQueryValueSchema } from "./http.ts";
import { type PaymentMethod, paymentMethodSchema } from "./payments.ts";

/**
 * Discount codes, the welcome discount and the four-hour time bonus (spec §1, §3, §4, §5, §7, §9;
 * decision 022). A discount is a percentage off a bundle's price, applied by the server when the
 * payment is made (the provider charges the discounted amount) and used up once the payment is paid.
 */

/** How often a code may be used: once by each member, once by anyone, or without limit. */
export const DISCOUNT_VALIDITIES = ["once_per_member", "once", "unlimited"] as const;
export type DiscountValidity = (typeof DISCOUNT_VALIDITIES)[number];

/** Where a discount comes from: the time bonus, the welcome discount, or a code (general or the member's own). */
export const DISCOUNT_KINDS = ["time_bonus", "welcome", "code"] as const;

/** A code's status (spec §3): staff disable a code instead of deleting it (its uses stay on the books). */
export const DISCOUNT_STATUSES = ["active", "disabled"] as const;

/** The welcome discount (spec §1): 25% off the first purchase, for this long after signup. */
export const WELCOME_DISCOUNT_HOURS = 48;
export const WELCOME_DISCOUNT_CODE = "WELCOME25";

/**
 * The discounted price in cents: rounded half up to the cent. One definition for the server (what the
 * provider charges) and the client (what the member is shown before paying).
 */
export function discountedCents(cents: number, percentage: number): number {
  return Math.round((cents * (100 - percentage)) / 100);
}

/** Spec §3 Discount code, as a member may see it (the members it is for and its redemptions stay on the server). */
export const discountSchema = z.object({
  code: z.string(),
  kind: z.enum(DISCOUNT_KINDS),
  /** Spec §3 `user_id`: the member a code is for (their own code), null for a code anyone may use. */
  user_id: z.number().int().nullable(),
  /** Spec §3 `status`. A member is only ever shown active codes (a disabled one is "Code not found"). */
  status: z.enum(DISCOUNT_STATUSES),
  value_percentage: z.number().int().min(1).max(100),
  /** Spec §3 `expired`: whether it has ended for this member (its end date or its window after signup passed). */
  expired: z.boolean(),
  /** When it ends (ISO 8601), null without an end. */
  expires: z.string().nullable(),
  /** Seconds until it ends, counted by the server (a client ticks from here, whatever its clock says). */
  seconds_left: z.number().int().nonnegative().nullable(),
  /** Only in this country / currency / with these methods / from this order value (major units of `currency`). */
  country: z.string().nullable(),
  currency: z.string().nullable(),
  minimum_order_value: z.number().nullable(),
  paymentmethods: z.array(paymentMethodSchema).nullable(),
  validity: z.enum(DISCOUNT_VALIDITIES),
});
export type Discount = z.infer<typeof discountSchema>;

/**
 * `GET /api/discountcode.php?code=…[&bundle_id=…&method=…]` checks a code for the member (and the bundle
 * and method being bought, when given); `?welcome=true` answers the member's welcome discount or null.
 * Errors: code_not_found ("Code not found"), code_already_used ("Code already used"), code_expired,
 * code_minimum_order, code_not_applicable.
 */
export const discountCodeQuerySchema = z.object({
  code: z.string().trim().max(64).optional(),
  welcome: z.enum(["true", "false"]).optional(),
  bundle_id: idQueryValueSchema.optional(),
  method: paymentMethodSchema.optional(),
});
export const discountCodeResponseSchema = z.object({
  discount: discountSchema.nullable(),
  /** With a bundle: its price before and after the discount, in the member's currency. */
  price: z.object({ original: z.number(), discounted: z.number(), currency: z.string() }).nullable(),
});
export type DiscountCodeResponse = z.infer<typeof discountCodeResponseSchema>;

/** `GET /api/discountcodes.php`: the codes the member can use now (the checkout's selector), best first. */
export const discountCodesResponseSchema = z.object({ discounts: z.array(discountSchema) });

/**
 * The code a checkout starts with before the member chooses (spec §4): the discount shown to the member
 * (the time bonus, else the welcome discount), else the best of the member's usable codes (they come best
 * first). One rule for the server-rendered checkout and the selector in the browser (issue #29).
 */
export function preselectedCode(shown: { code: string } | null, codes: readonly { code: string }[]): string | null {
  return shown?.code ?? codes[0]?.code ?? null;
}

/**
 * What the checkout's first screen needs of the member's discounts (issue #29: rendered on the server):
 * the discount shown to the member, their usable codes (GET /api/discountcodes.php), and the pre-selected
 * code's check for this bundle and method (GET /api/discountcode.php) when it applies, else null.
 */
export interface CheckoutDiscounts {
  shown: { kind: "time_bonus" | "welcome"; code: string; value_percentage: number } | null;
  codes: Discount[];
  preselected: { code: string; bundle_id: number; method: PaymentMethod; answer: DiscountCodeResponse } | null;
}

/** `GET /api/time-bonus.php` (spec §7 time-bonus load): the member's time bonus, or null. */
export const timeBonusSchema = z.object({
  code: z.string(),
  value_percentage: z.number().int(),
  seconds_left: z.number().int().nonnegative(),
});
export type TimeBonus = z.infer<typeof timeBonusSchema>;
export const timeBonusResponseSchema = z.object({ time_bonus: timeBonusSchema.nullable() });
export type TimeBonusResponse = z.infer<typeof timeBonusResponseSchema>;
