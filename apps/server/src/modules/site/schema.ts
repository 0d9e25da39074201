import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** The operating company shown in the footer, the terms and /api/companyinfo.php. */
export const companies = pgTable("companies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  address: text("address").notNull(),
  kvk: text("kvk").notNull(),
  city: text("city").notNull(),
  country: text("country").notNull(),
  tradenames: text("tradenames").array().notNull().default(sql`'{}'::text[]`),
  vatNumbers: text("vat_numbers").array().notNull().default(sql`'{}'::text[]`),
  supportPhone: text("support_phone").notNull(),
  deleteDiscount: integer("delete_discount").notNull().default(0),
  added: timestamp("added", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One product, several brand domains: a site per host, and one default site for every other host.
 * `settings` holds the validated overrides of the Settings fields that have no column.
 */
export const sites = pgTable(
  "sites",
  {
    id: serial("id").primaryKey(),
    host: text("host").notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    name: text("name").notNull(),
    indexTitle: text("index_title").notNull(),
    description: text("description").notNull(),
    domainLanguage: text("domain_language"),
    supportEmail: text("support_email").notNull(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    settings: jsonb("settings").notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("sites_host_unique").on(sql`lower(${t.host})`),
    uniqueIndex("sites_one_default").on(t.isDefault).where(sql`${t.isDefault}`),
    check("sites_host_lowercase", sql`${t.host} = lower(${t.host})`),
  ],
);
