import { z } from "zod";
import { DISCOUNT_KINDS, DISCOUNT_VALIDITIES } from "./discounts.ts";
import { idSchema } from "./http.ts";
import { paymentMethodSchema } from "./payments.ts";
import { countryCodeSchema } from "./settings.ts";

/**
 * Discount codes and credit bundles as the staff console manages them (issue #27, /staff/discounts):
 * create, expire or retire, and see who used them. The endpoints are in staff-discounts.ts.
 */

export const currencyCodeSchema = z.string().regex(/^[A-Z]{3}$/);

/** A new discount code (spec §3 Discount code; decision 022). A member's own code names its member. */
export const discountCreateSchema = z.object({
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9][A-Z0-9_-]{2,31}$/),
  value_percentage: z.number().int().min(1).max(100),
  validity: z.enum(DISCOUNT_VALIDITIES),
  /** ISO 8601, in the future; null: no end. */
  expires_at: z.iso.datetime({ offset: true }).nullable(),
  country: countryCodeSchema.nullable(),
  currency: currencyCodeSchema.nullable(),
  minimum_order_cents: z.number().int().min(1).max(10_000_000).nullable(),
  payment_methods: z.array(paymentMethodSchema).min(1).nullable(),
  first_purchase_only: z.boolean(),
  /** Only for this member (their own code); null: for anyone. */
  user_id: idSchema.nullable(),
});
export type DiscountCreate = z.infer<typeof discountCreateSchema>;
export type DiscountCreateInput = z.input<typeof discountCreateSchema>;

/** A code with how often it was used (redeemed: paid; reserved: held by an open payment). */
export const staffDiscountSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  kind: z.enum(DISCOUNT_KINDS),
  value_percentage: z.number().int(),
  validity: z.enum(DISCOUNT_VALIDITIES),
  status: z.enum(["active", "disabled"]),
  expires_at: z.string().nullable(),
  /** Past its end date (or disabled): no payment can take it any more. */
  expired: z.boolean(),
  country: z.string().nullable(),
  currency: z.string().nullable(),
  minimum_order_cents: z.number().int().nullable(),
  payment_methods: z.array(z.string()).nullable(),
  first_purchase_only: z.boolean(),
  signup_window_seconds: z.number().int().nullable(),
  user_id: z.number().int().nullable(),
  created_at: z.string(),
  redeemed: z.number().int(),
  reserved: z.number().int(),
});
export type StaffDiscount = z.infer<typeof staffDiscountSchema>;

export const staffRedemptionSchema = z.object({
  id: z.number().int(),
  /** Null once the member's account was erased (the payment stays, for the books). */
  user_id: z.number().int().nullable(),
  payment_id: z.number().int(),
  status: z.enum(["reserved", "redeemed", "released"]),
  created_at: z.string(),
  redeemed_at: z.string().nullable(),
});
export type StaffRedemption = z.infer<typeof staffRedemptionSchema>;

/** A credit bundle with its prices (whole cents per currency) and how many paid payments bought it. */
export const staffBundleSchema = z.object({
  id: z.number().int(),
  credits: z.number().int(),
  position: z.number().int(),
  best_value: z.boolean(),
  active: z.boolean(),
  prices: z.record(z.string(), z.number().int()),
  purchases: z.number().int(),
});
export type StaffBundle = z.infer<typeof staffBundleSchema>;

/** A new bundle: offered after the others; best value moves to it when asked. */
export const bundleCreateSchema = z.object({
  credits: z.number().int().min(1).max(1_000_000),
  prices: z
    .record(currencyCodeSchema, z.number().int().min(1).max(10_000_000))
    .refine((prices) => Object.keys(prices).length > 0),
  best_value: z.boolean(),
});
export type BundleCreate = z.infer<typeof bundleCreateSchema>;
export type BundleCreateInput = z.input<typeof bundleCreateSchema>;
