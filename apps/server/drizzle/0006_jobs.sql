CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb,
	"key" text,
	"slot" timestamp with time zone,
	"state" text DEFAULT 'pending' NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "jobs_due" ON "jobs" USING btree ("run_at") WHERE "jobs"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "jobs_leased" ON "jobs" USING btree ("locked_until") WHERE "jobs"."state" = 'running';--> statement-breakpoint
CREATE INDEX "jobs_finished" ON "jobs" USING btree ("finished_at") WHERE "jobs"."state" in ('done', 'failed');--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_pending_key" ON "jobs" USING btree ("name","key") WHERE "jobs"."key" is not null and "jobs"."state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_slot" ON "jobs" USING btree ("name","slot") WHERE "jobs"."slot" is not null;