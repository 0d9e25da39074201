import { z } from "zod";
import { idQueryValueSchema, idSchema } from "./http.ts";
import { countryCodeSchema } from "./settings.ts";

/**
 * Credits, bundles, payments and premium (spec §1, §2, §3, §4, §8; decision 021). A member buys a
 * credit bundle with a payment method; the provider (the embedded sandbox, or Mollie) takes the money
 * and tells the site, which then adds the credits exactly once and makes the member premium for life.
 * Amounts are in the currency's major unit (19.99), computed from whole cents on the server.
 */

/**
 * The methods a payment can use: Mollie's method ids, which are the spec §1 list (direct debit, wire
 * transfer, card brands, iDEAL, Bancontact, Blik, PayPal, Apple Pay, Paysafecard and others). Which
 * ones a member is offered depends on the payment country and currency (`GET /api/bundles.php`).
 */
export const PAYMENT_METHODS = [
  "ideal",
  "bancontact",
  "kbc",
  "belfius",
  "eps",
  "blik",
  "przelewy24",
  "twint",
  "creditcard",
  "applepay",
  "paypal",
  "paysafecard",
  "banktransfer",
  "directdebit",
] as const;
export const paymentMethodSchema = z.enum(PAYMENT_METHODS);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/**
 * Methods that pay through the site's own direct-debit form (`/directdebit`: IBAN, phone, one-time
 * code) instead of the provider's checkout page.
 */
export const FORM_METHODS: readonly PaymentMethod[] = ["directdebit"];

/**
 * A payment's life (spec §4): created (the row exists, the provider was not reached yet) → pending
 * (at the provider, waiting for the member or the bank) → paid | failed | cancelled | expired; a paid
 * payment may later be refunded or charged back.
 */
export const PAYMENT_STATUSES = [
  "created",
  "pending",
  "paid",
  "failed",
  "cancelled",
  "expired",
  "refunded",
  "charged_back",
] as const;
export const paymentStatusSchema = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** Statuses in which the member still waits for the outcome (spec §4: "Processing your payment"). */
export const OPEN_PAYMENT_STATUSES: readonly PaymentStatus[] = ["created", "pending"];
/** Statuses of a payment that did not take money (spec §8: "Payment failed or has been cancelled."). */
export const FAILED_PAYMENT_STATUSES: readonly PaymentStatus[] = ["failed", "cancelled", "expired"];

/** A credit bundle as offered in the member's currency. */
export const bundleSchema = z.object({
  id: z.number().int(),
  credits: z.number().int().positive(),
  price: z.number().nonnegative(),
  currency: z.string().length(3),
  /** One bundle is marked as the best value. */
  best_value: z.boolean(),
});
export type Bundle = z.infer<typeof bundleSchema>;

export const bundlesResponseSchema = z.object({
  /** The payment country: geo-ip, else the profile's, else the site's default. */
  country: countryCodeSchema,
  currency: z.string().length(3),
  bundles: z.array(bundleSchema),
  /** The methods offered in that country and currency, in the order to show them. */
  methods: z.array(paymentMethodSchema),
  /** What things cost in credits (`/pricing`). */
  costs: z.object({ message: z.number().int(), photo: z.number().int(), gift: z.number().int() }),
  /** Spec §1: "{refund_days} day free returns". */
  refund_days: z.number().int().nonnegative(),
  /**
   * The member's last paid bundle and method, when it can be bought again in one step with a stored
   * card or mandate (`/credits/repeat-order`); null for visitors and members without one.
   */
  repeat_order: z
    .object({ bundle_id: z.number().int(), credits: z.number().int(), price: z.number(), method: paymentMethodSchema })
    .nullable(),
  /**
   * Whether credits can be bought at all (decision 030): false on a site without a payment provider,
   * where the credits pages say so instead of offering a checkout, and the payment calls answer
   * `payments_unavailable`.
   */
  purchases_available: z.boolean(),
});
export type BundlesResponse = z.infer<typeof bundlesResponseSchema>;

/** Spec §3's Payment, with what the result page and the history show. */
export const paymentSchema = z.object({
  payment_id: z.number().int(),
  status: paymentStatusSchema,
  credits: z.number().int(),
  amount: z.number(),
  currency: z.string().length(3),
  method: paymentMethodSchema,
  created: z.string(),
  /** When the provider confirmed the money; null before. */
  paid_at: z.string().nullable(),
  /**
   * Spec §1 "{refund_days} day free returns": the member may ask for a refund now (paid, within the
   * days, and the bundle's credits still unspent).
   */
  refundable: z.boolean(),
  /** The provider's page to finish paying, while the payment is open and has one. */
  checkout_url: z.string().nullable(),
  /** The bundle bought (to buy it again another way). */
  bundle_id: z.number().int(),
  /** The discount applied when the payment was made (the provider charged `amount`, after it). */
  discount: z.object({ code: z.string(), value_percentage: z.number().int(), original_amount: z.number() }).nullable(),
  /**
   * Charged to a stored card or mandate without a checkout page: a repeat order or a direct debit
   * (spec §8: a failed recurring card payment offers a retry or PayPal).
   */
  recurring: z.boolean(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const paymentCreateRequestSchema = z.object({
  bundle_id: idSchema,
  method: paymentMethodSchema,
  /** Applied on the server (the discounts issue); accepted and checked here already. */
  discount_code: z.string().trim().max(64).optional(),
  /** A UUID the client makes per purchase attempt: a repeated request answers the same payment. */
  client_id: z.string().uuid(),
});
export type PaymentCreateRequest = z.infer<typeof paymentCreateRequestSchema>;

export const paymentCreateResponseSchema = z.object({
  payment_id: z.number().int(),
  /** Where the browser goes to pay; null when no page is needed (a repeat order, a direct debit). */
  checkout_url: z.string().nullable(),
});
export type PaymentCreateResponse = z.infer<typeof paymentCreateResponseSchema>;

export const paymentQuerySchema = z.object({ id: idQueryValueSchema });
export const paymentResponseSchema = paymentSchema;
export const transactionsResponseSchema = z.object({ payments: z.array(paymentSchema) });

export const refundRequestSchema = z.object({ payment_id: idSchema });

/** `/credits/repeat-order`: the last bundle again, charged to the stored card or mandate. */
export const repeatOrderRequestSchema = z.object({ client_id: z.string().uuid() });

/**
 * "Try again" on a failed, cancelled or expired order (issue #29): `POST /api/payment-retry.php` makes a
 * new payment of that order's bundle, method and discount code, and answers where to pay it. The code is
 * checked again (a failed payment released it); one that no longer applies answers its error.
 */
export const paymentRetryRequestSchema = z.object({ payment_id: idSchema, client_id: z.string().uuid() });

/**
 * `/directdebit` step 1: the account holder, IBAN and phone; the server checks the IBAN (checksum,
 * SEPA country) and texts a one-time code to the phone.
 */
export const directDebitStartRequestSchema = z.object({
  bundle_id: idSchema,
  name: z.string().trim().min(2).max(70),
  iban: z.string().trim().min(15).max(42),
  /** International format, e.g. +31612345678. */
  phone: z.string().trim().min(8).max(20),
});
export const directDebitStartResponseSchema = z.object({
  verification_id: z.string(),
  /** The phone the code went to, masked (+31 6•••••678). */
  phone: z.string(),
  expires_in_seconds: z.number().int(),
});
/** `/directdebit` step 2: the code from the SMS; a right code creates the mandate and the payment. */
export const directDebitConfirmRequestSchema = z.object({
  /** The UUID step 1 answered (a `uuid` column: any other text failed the query, issue #25). */
  verification_id: z.uuid(),
  code: z.string().trim().max(12),
  client_id: z.string().uuid(),
});

/** A direct-debit one-time code: this many digits, valid this long, this many tries. */
export const DIRECT_DEBIT_CODE = { digits: 6, ttlSeconds: 600, maxAttempts: 5 } as const;
