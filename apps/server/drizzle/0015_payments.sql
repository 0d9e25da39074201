CREATE TABLE "sandbox_customers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_mandates" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"method" text NOT NULL,
	"label" text NOT NULL,
	"status" text DEFAULT 'valid' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"description" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"redirect_url" text NOT NULL,
	"webhook_url" text NOT NULL,
	"locale" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"sequence" text NOT NULL,
	"customer_id" text,
	"mandate_id" text,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"charged_back_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_payments_status" CHECK ("sandbox_payments"."status" in ('open', 'pending', 'authorized', 'paid', 'failed', 'canceled', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "credit_bundle_prices" (
	"bundle_id" integer NOT NULL,
	"currency" text NOT NULL,
	"amount_cents" integer NOT NULL,
	CONSTRAINT "credit_bundle_prices_bundle_id_currency_pk" PRIMARY KEY("bundle_id","currency"),
	CONSTRAINT "credit_bundle_prices_amount_positive" CHECK ("credit_bundle_prices"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "credit_bundles" (
	"id" serial PRIMARY KEY NOT NULL,
	"credits" integer NOT NULL,
	"position" integer NOT NULL,
	"best_value" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "credit_bundles_credits_positive" CHECK ("credit_bundles"."credits" > 0)
);
--> statement-breakpoint
CREATE TABLE "direct_debit_verifications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"bundle_id" integer NOT NULL,
	"name" text NOT NULL,
	"iban" text NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_customers" (
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"customer_id" text NOT NULL,
	CONSTRAINT "payment_customers_user_id_provider_pk" PRIMARY KEY("user_id","provider")
);
--> statement-breakpoint
CREATE TABLE "payment_mandates" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"customer_id" text NOT NULL,
	"mandate_id" text NOT NULL,
	"method" text NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_standing" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"flagged_at" timestamp with time zone,
	"flag_reason" text,
	"direct_debit_blocked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"client_id" uuid NOT NULL,
	"bundle_id" integer NOT NULL,
	"credits" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"country" text NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"provider" text NOT NULL,
	"provider_id" text,
	"checkout_url" text,
	"sequence" text DEFAULT 'oneoff' NOT NULL,
	"locale" text NOT NULL,
	"discount_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"reversed_credits" integer DEFAULT 0 NOT NULL,
	"checked_at" timestamp with time zone,
	CONSTRAINT "payments_status" CHECK ("payments"."status" in ('created', 'pending', 'paid', 'failed', 'cancelled', 'expired', 'refunded', 'charged_back')),
	CONSTRAINT "payments_method" CHECK ("payments"."method" in ('ideal', 'bancontact', 'kbc', 'belfius', 'eps', 'blik', 'przelewy24', 'twint', 'creditcard', 'applepay', 'paypal', 'paysafecard', 'banktransfer', 'directdebit')),
	CONSTRAINT "payments_sequence" CHECK ("payments"."sequence" in ('oneoff', 'first', 'recurring')),
	CONSTRAINT "payments_amount" CHECK ("payments"."amount_cents" > 0 and "payments"."credits" > 0)
);
--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_bundle_prices" ADD CONSTRAINT "credit_bundle_prices_bundle_id_credit_bundles_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."credit_bundles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "direct_debit_verifications" ADD CONSTRAINT "direct_debit_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "direct_debit_verifications" ADD CONSTRAINT "direct_debit_verifications_bundle_id_credit_bundles_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."credit_bundles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_customers" ADD CONSTRAINT "payment_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_mandates" ADD CONSTRAINT "payment_mandates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_standing" ADD CONSTRAINT "payment_standing_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_bundle_id_credit_bundles_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."credit_bundles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "direct_debit_verifications_user" ON "direct_debit_verifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_mandates_provider_mandate" ON "payment_mandates" USING btree ("provider","mandate_id");--> statement-breakpoint
CREATE INDEX "payment_mandates_user" ON "payment_mandates" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_user_client" ON "payments" USING btree ("user_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_id" ON "payments" USING btree ("provider","provider_id");--> statement-breakpoint
CREATE INDEX "payments_user" ON "payments" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "payments_open" ON "payments" USING btree ("created_at") WHERE "payments"."status" in ('created', 'pending');--> statement-breakpoint
INSERT INTO "credit_bundles" ("id", "credits", "position", "best_value") VALUES (1, 100, 1, false), (2, 250, 2, false), (3, 500, 3, true), (4, 1200, 4, false);--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('credit_bundles', 'id'), 4);--> statement-breakpoint
INSERT INTO "credit_bundle_prices" ("bundle_id", "currency", "amount_cents") VALUES
  (1, 'EUR', 999), (2, 'EUR', 2249), (3, 'EUR', 3999), (4, 'EUR', 7999),
  (1, 'CHF', 999), (2, 'CHF', 2249), (3, 'CHF', 3999), (4, 'CHF', 7999),
  (1, 'GBP', 899), (2, 'GBP', 1999), (3, 'GBP', 3499), (4, 'GBP', 6999),
  (1, 'USD', 1099), (2, 'USD', 2499), (3, 'USD', 4399), (4, 'USD', 8799),
  (1, 'CAD', 1499), (2, 'CAD', 3299), (3, 'CAD', 5799), (4, 'CAD', 11499),
  (1, 'AUD', 1599), (2, 'AUD', 3599), (3, 'AUD', 6299), (4, 'AUD', 12499),
  (1, 'NZD', 1699), (2, 'NZD', 3899), (3, 'NZD', 6799), (4, 'NZD', 13499),
  (1, 'PLN', 4499), (2, 'PLN', 9999), (3, 'PLN', 17999), (4, 'PLN', 35999);
