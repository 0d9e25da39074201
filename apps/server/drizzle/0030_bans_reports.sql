CREATE TABLE "member_bans" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"lifted_at" timestamp with time zone,
	"lifted_by" integer,
	CONSTRAINT "member_bans_reason_check" CHECK ("member_bans"."reason" in ('fake_profile', 'spam', 'scam', 'harassment', 'inappropriate_content', 'underage', 'terms_violation'))
);
--> statement-breakpoint
CREATE TABLE "complaint_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"complaint_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"reporter_id" integer,
	"object_type" text NOT NULL,
	"object_id" integer NOT NULL,
	"profile_id" integer,
	"user_id" integer,
	"reason" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"content" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assigned_to" integer,
	"resolution" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "reports_object_type_check" CHECK ("reports"."object_type" in ('profile', 'message')),
	CONSTRAINT "reports_reason_check" CHECK ("reports"."reason" in ('fake_profile', 'spam', 'scam', 'harassment', 'inappropriate_content', 'underage', 'other')),
	CONSTRAINT "reports_status_check" CHECK ("reports"."status" in ('open', 'in_progress', 'closed'))
);
--> statement-breakpoint
DROP INDEX "users_hidden";--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "ended_by_ban" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "banned_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "assigned_to" integer;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "member_bans" ADD CONSTRAINT "member_bans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaint_answers" ADD CONSTRAINT "complaint_answers_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_bans_user" ON "member_bans" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "complaint_answers_complaint" ON "complaint_answers" USING btree ("complaint_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_once" ON "reports" USING btree ("reporter_id","object_type","object_id") WHERE "reports"."status" <> 'closed';--> statement-breakpoint
CREATE INDEX "reports_status_created_idx" ON "reports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reports_reporter_created_idx" ON "reports" USING btree ("reporter_id","created_at");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_ended_by_ban_member_bans_id_fk" FOREIGN KEY ("ended_by_ban") REFERENCES "public"."member_bans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_hidden" ON "users" USING btree ("id") WHERE "users"."invisible" or "users"."status" = 'pending_deletion' or "users"."banned_until" is not null;--> statement-breakpoint
-- Issue #27: a banned member is hidden like an invisible one, until the ban's end (users.banned_until,
-- 'infinity' for a ban without one). The comparison with now() makes an expired ban end by itself;
-- AccountJobs clears the column afterwards so that users_hidden stays small. The lent conditions
-- (accounts/queries.ts) say the same; visibility.test.ts holds them to one answer.
CREATE OR REPLACE FUNCTION "accounts_member_hidden"(p_user integer) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
begin
  return exists (
    select 1 from "users" u
    where u."id" = p_user
      and (u."invisible" or u."status" = 'pending_deletion' or (u."banned_until" is not null and u."banned_until" > now())));
end
$$;
