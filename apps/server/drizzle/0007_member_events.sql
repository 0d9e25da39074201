CREATE TABLE "member_event_seqs" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"seq" bigint NOT NULL,
	"event" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "member_events_user_seq" ON "member_events" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "member_events_created" ON "member_events" USING btree ("created_at");