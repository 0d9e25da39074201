-- Support (issue #27): member logins, the recorded reasons to read conversations, support's refund mark,
-- and the indexes of the member search (e-mail and name prefixes, the provider's payment id).
CREATE TABLE "member_logins" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"method" text NOT NULL,
	"address" text NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_conversation_access" (
	"id" serial PRIMARY KEY NOT NULL,
	"staff_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "member_logins" ADD CONSTRAINT "member_logins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_conversation_access" ADD CONSTRAINT "support_conversation_access_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_logins_user" ON "member_logins" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "support_conversation_access_lookup" ON "support_conversation_access" USING btree ("staff_id","user_id","expires_at");--> statement-breakpoint
CREATE INDEX "users_email_prefix" ON "users" USING btree ("email" collate "C");--> statement-breakpoint
CREATE INDEX "payments_provider_ref" ON "payments" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "profiles_name_prefix" ON "profiles" USING btree (lower("name") collate "C");