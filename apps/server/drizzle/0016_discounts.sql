CREATE TABLE "discount_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text DEFAULT 'code' NOT NULL,
	"user_id" integer,
	"value_percentage" integer NOT NULL,
	"country" text,
	"currency" text,
	"minimum_order_cents" integer,
	"payment_methods" text[],
	"expires_at" timestamp with time zone,
	"signup_window_seconds" integer,
	"first_purchase_only" boolean DEFAULT false NOT NULL,
	"validity" text DEFAULT 'once_per_member' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_percentage" CHECK ("discount_codes"."value_percentage" between 1 and 100),
	CONSTRAINT "discount_codes_kind" CHECK ("discount_codes"."kind" in ('time_bonus', 'welcome', 'code')),
	CONSTRAINT "discount_codes_validity" CHECK ("discount_codes"."validity" in ('once_per_member', 'once', 'unlimited')),
	CONSTRAINT "discount_codes_status" CHECK ("discount_codes"."status" in ('active', 'disabled')),
	CONSTRAINT "discount_codes_upper" CHECK ("discount_codes"."code" = upper("discount_codes"."code"))
);
--> statement-breakpoint
CREATE TABLE "discount_redemptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_id" integer NOT NULL,
	"user_id" integer,
	"payment_id" integer NOT NULL,
	"status" text DEFAULT 'reserved' NOT NULL,
	"scope_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"redeemed_at" timestamp with time zone,
	CONSTRAINT "discount_redemptions_status" CHECK ("discount_redemptions"."status" in ('reserved', 'redeemed', 'released'))
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_percentage" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "original_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_redemptions" ADD CONSTRAINT "discount_redemptions_code_id_discount_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."discount_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_redemptions" ADD CONSTRAINT "discount_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_redemptions" ADD CONSTRAINT "discount_redemptions_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_code" ON "discount_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "discount_codes_user" ON "discount_codes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "discount_redemptions_payment" ON "discount_redemptions" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "discount_redemptions_scope" ON "discount_redemptions" USING btree ("scope_key") WHERE "discount_redemptions"."status" <> 'released' and "discount_redemptions"."scope_key" is not null;--> statement-breakpoint
CREATE INDEX "discount_redemptions_user" ON "discount_redemptions" USING btree ("user_id");--> statement-breakpoint
INSERT INTO "discount_codes" ("code", "kind", "value_percentage", "signup_window_seconds", "first_purchase_only", "validity") VALUES
  ('TIMEBONUS25', 'time_bonus', 25, 14400, true, 'once_per_member'),
  ('WELCOME25', 'welcome', 25, 172800, true, 'once_per_member');
