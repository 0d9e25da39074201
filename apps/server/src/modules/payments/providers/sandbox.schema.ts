import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The embedded sandbox provider's own books (decision 021). They stand for a payment provider's
 * servers: the site's payments module never reads them, it asks the sandbox through the same
 * interface it uses for Mollie, and the sandbox tells the site only through its webhook.
 */
export const sandboxPayments = pgTable(
  "sandbox_payments",
  {
    /** "tr_sbx_…", like a provider's own ids. */
    id: text("id").primaryKey(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    method: text("method").notNull(),
    description: text("description").notNull(),
    /** Mollie's statuses: open, pending, authorized, paid, failed, canceled, expired. */
    status: text("status").notNull().default("open"),
    redirectUrl: text("redirect_url").notNull(),
    webhookUrl: text("webhook_url").notNull(),
    locale: text("locale").notNull(),
    metadata: jsonb("metadata").notNull(),
    sequence: text("sequence").notNull(),
    customerId: text("customer_id"),
    mandateId: text("mandate_id"),
    refundedCents: integer("refunded_cents").notNull().default(0),
    chargedBackCents: integer("charged_back_cents").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "sandbox_payments_status",
      sql`${t.status} in ('open', 'pending', 'authorized', 'paid', 'failed', 'canceled', 'expired')`,
    ),
  ],
);

export const sandboxCustomers = pgTable("sandbox_customers", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A stored card or account of a sandbox customer; `valid` false makes recurring charges on it fail. */
export const sandboxMandates = pgTable("sandbox_mandates", {
  id: text("id").primaryKey(),
  customerId: text("customer_id").notNull(),
  method: text("method").notNull(),
  label: text("label").notNull(),
  status: text("status").notNull().default("valid"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
