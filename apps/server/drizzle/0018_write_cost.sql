DROP INDEX "member_events_user_seq";--> statement-breakpoint
DROP INDEX "conversations_fictional";--> statement-breakpoint
DROP INDEX "messages_created";--> statement-breakpoint
DROP INDEX "member_events_created";--> statement-breakpoint
ALTER TABLE "member_events" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "member_events" ADD CONSTRAINT "member_events_user_seq" PRIMARY KEY("user_id","seq");--> statement-breakpoint
CREATE INDEX "conversations_fictional" ON "conversations" USING btree ("id") WHERE "conversations"."fictional";--> statement-breakpoint
CREATE INDEX "messages_created" ON "messages" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "member_events_created" ON "member_events" USING brin ("created_at");
