import { PAYMENT_METHODS, PAYMENT_STATUSES } from "@app/contract";
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { inList } from "../../platform/db/check.ts";
import { users } from "../accounts/schema.ts";

/** Credit bundles in the order they are offered; one is marked best value (decision 021). */
export const creditBundles = pgTable(
  "credit_bundles",
  {
    id: serial("id").primaryKey(),
    credits: integer("credits").notNull(),
    position: integer("position").notNull(),
    bestValue: boolean("best_value").notNull().default(false),
    /** Retired bundles stay for the payments that bought them, and are no longer offered. */
    active: boolean("active").notNull().default(true),
  },
  (t) => [check("credit_bundles_credits_positive", sql`${t.credits} > 0`)],
);

/** A bundle's price in each currency it is sold in, in whole cents. */
export const creditBundlePrices = pgTable(
  "credit_bundle_prices",
  {
    bundleId: integer("bundle_id")
      .notNull()
      .references(() => creditBundles.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    amountCents: integer("amount_cents").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bundleId, t.currency] }),
    check("credit_bundle_prices_amount_positive", sql`${t.amountCents} > 0`),
  ],
);

/**
 * One purchase attempt (spec §3 Payment). The id is the order number members see ("Order #{id}").
 * Credits, amount and currency are copied from the bundle when it is made, so a later price change
 * never alters what was bought. `user_id` is cleared when an account is erased: the financial record
 * stays (bookkeeping), without the person.
 */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The client's id of the purchase attempt: a repeated create answers the same payment. */
    clientId: uuid("client_id").notNull(),
    bundleId: integer("bundle_id")
      .notNull()
      .references(() => creditBundles.id),
    credits: integer("credits").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    method: text("method").notNull(),
    /** The payment country (geo-ip, else the profile's). */
    country: text("country").notNull(),
    status: text("status").notNull().default("created"),
    provider: text("provider").notNull(),
    /** The provider's id; null until the provider has the payment. */
    providerId: text("provider_id"),
    checkoutUrl: text("checkout_url"),
    /** oneoff, first (keeps a mandate for repeat orders) or recurring (charged to a mandate). */
    sequence: text("sequence").notNull().default("oneoff"),
    /** The member's language when paying: the receipt's language. */
    locale: text("locale").notNull(),
    /** The discount applied when the payment was made: its code, percentage and the price before it. */
    discountCode: text("discount_code"),
    discountPercentage: integer("discount_percentage"),
    originalAmountCents: integer("original_amount_cents"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the provider's word that the money is in was recorded (and the credits added). */
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** Credits taken back by a refund or chargeback (what was still unspent). */
    reversedCredits: integer("reversed_credits").notNull().default(0),
    /** The last time the site asked the provider (webhook or reconciliation). */
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    /** When support asked the provider to refund it (a second request then changes nothing). */
    refundRequestedAt: timestamp("refund_requested_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("payments_user_client").on(t.userId, t.clientId),
    uniqueIndex("payments_provider_id").on(t.provider, t.providerId),
    index("payments_user").on(t.userId, t.id),
    // Support finds a payment by the provider's id (tr_…) whichever provider made it.
    index("payments_provider_ref").on(t.providerId),
    index("payments_open").on(t.createdAt).where(sql`${t.status} in ('created', 'pending')`),
    check("payments_status", sql`${t.status} in (${inList(PAYMENT_STATUSES)})`),
    check("payments_method", sql`${t.method} in (${inList(PAYMENT_METHODS)})`),
    check("payments_sequence", sql`${t.sequence} in ('oneoff', 'first', 'recurring')`),
    check("payments_amount", sql`${t.amountCents} > 0 and ${t.credits} > 0`),
  ],
);

/**
 * A member's stored card or bank account at a provider (a mandate), kept after a paid "first" payment
 * or made by the direct-debit form: repeat orders charge it without a checkout.
 */
export const paymentMandates = pgTable(
  "payment_mandates",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    customerId: text("customer_id").notNull(),
    mandateId: text("mandate_id").notNull(),
    method: text("method").notNull(),
    /** "Visa •••• 4242", "NL•• •••• 4300": what the member sees. */
    label: text("label"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when a charge on it failed or was reversed: repeat orders no longer use it. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("payment_mandates_provider_mandate").on(t.provider, t.mandateId),
    index("payment_mandates_user").on(t.userId, t.id),
  ],
);

/**
 * The provider customer made for a member (one per provider), so that every mandate of theirs hangs
 * under the same customer.
 */
export const paymentCustomers = pgTable(
  "payment_customers",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    customerId: text("customer_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/**
 * Payment standing of a member: flagged after a refund or chargeback took credits back (staff look at
 * those), and blocked for direct debit after a failed or reversed debit (spec §8).
 */
export const paymentStanding = pgTable("payment_standing", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  flaggedAt: timestamp("flagged_at", { withTimezone: true }),
  flagReason: text("flag_reason"),
  directDebitBlockedAt: timestamp("direct_debit_blocked_at", { withTimezone: true }),
});

/**
 * A direct-debit form waiting for its one-time code (spec §5): the IBAN and phone it was sent for, the
 * code's hash, its expiry and the tries left. The IBAN is kept only until the mandate is made.
 */
export const directDebitVerifications = pgTable(
  "direct_debit_verifications",
  {
    id: uuid("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    bundleId: integer("bundle_id")
      .notNull()
      .references(() => creditBundles.id),
    name: text("name").notNull(),
    iban: text("iban").notNull(),
    phone: text("phone").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("direct_debit_verifications_user").on(t.userId, t.createdAt)],
);
