CREATE TABLE "credit_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"paid_user" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_accounts_balance_nonnegative" CHECK ("credit_accounts"."balance" >= 0)
);
--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_user_key" ON "credit_ledger" USING btree ("user_id","key") WHERE "credit_ledger"."key" is not null;--> statement-breakpoint
-- Decision 015: the balance and the premium flag move from users to credit_accounts. Members with
-- 0 credits who are not premium need no row (no row reads as 0 credits, not premium).
INSERT INTO "credit_accounts" ("user_id", "balance", "paid_user")
	SELECT "id", "credits", "paid_user" FROM "users" WHERE "credits" <> 0 OR "paid_user";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_credits_nonnegative";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "paid_user";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "credits";
