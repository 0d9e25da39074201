import { DISCOUNT_KINDS, DISCOUNT_VALIDITIES } from "@app/contract";
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { inList } from "../../platform/db/check.ts";
import { users } from "../accounts/schema.ts";
import { payments } from "../payments/schema.ts";

/**
 * Spec §3 Discount code (decision 022): a percentage off, general or for one member, limited to a
 * country, a currency, payment methods, a minimum order value, an end date, a window after signup
 * (the time bonus, the welcome discount) and first purchases; used once per member, once overall, or
 * without limit.
 */
export const discountCodes = pgTable(
  "discount_codes",
  {
    id: serial("id").primaryKey(),
    /** Upper case; members may type it in any case. */
    code: text("code").notNull(),
    kind: text("kind").notNull().default("code"),
    /** Only for this member (their own code); null: for anyone. */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    valuePercentage: integer("value_percentage").notNull(),
    country: text("country"),
    currency: text("currency"),
    /** In cents of `currency` (a minimum without a currency applies to the price in any currency). */
    minimumOrderCents: integer("minimum_order_cents"),
    paymentMethods: text("payment_methods").array(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Usable only this many seconds after the member's signup (TIMEBONUS25: 14400, WELCOME25: 48 h). */
    signupWindowSeconds: integer("signup_window_seconds"),
    /** Only for a member who has not bought before (premium members have). */
    firstPurchaseOnly: boolean("first_purchase_only").notNull().default(false),
    validity: text("validity").notNull().default("once_per_member"),
    /** active, or disabled by staff. */
    status: text("status").notNull().default("active"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("discount_codes_code").on(t.code),
    index("discount_codes_user").on(t.userId),
    check("discount_codes_percentage", sql`${t.valuePercentage} between 1 and 100`),
    check("discount_codes_kind", sql`${t.kind} in (${inList(DISCOUNT_KINDS)})`),
    check("discount_codes_validity", sql`${t.validity} in (${inList(DISCOUNT_VALIDITIES)})`),
    check("discount_codes_status", sql`${t.status} in ('active', 'disabled')`),
    check("discount_codes_upper", sql`${t.code} = upper(${t.code})`),
  ],
);

/**
 * A code's use by a payment: reserved when the payment is made (so a second payment cannot take the
 * same once-only code meanwhile), redeemed when it is paid, released when it fails, is cancelled or
 * expires. `scope_key` carries the validity: `<code>:<member>` for once per member, `<code>` for once
 * overall, null for unlimited; one live (reserved or redeemed) row per scope, enforced by the index.
 */
export const discountRedemptions = pgTable(
  "discount_redemptions",
  {
    id: serial("id").primaryKey(),
    codeId: integer("code_id")
      .notNull()
      .references(() => discountCodes.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("reserved"),
    scopeKey: text("scope_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    redeemedAt: timestamp("redeemed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("discount_redemptions_payment").on(t.paymentId),
    uniqueIndex("discount_redemptions_scope").on(t.scopeKey).where(sql`${t.status} <> 'released' and ${t.scopeKey} is not null`),
    index("discount_redemptions_user").on(t.userId),
    check("discount_redemptions_status", sql`${t.status} in ('reserved', 'redeemed', 'released')`),
  ],
);
