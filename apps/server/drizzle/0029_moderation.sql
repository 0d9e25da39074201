-- Review of photos and about texts (issue #27). Photos: new uploads wait in the queue (review_pending);
-- the seeded and earlier ones do not. About texts: `about` stays what others see, `about_approved` the
-- last approved one (what a rejected text reverts to), `about_review` the text waiting for review.
CREATE TYPE "public"."moderation_reason" AS ENUM('not_a_person', 'explicit', 'contact_details', 'offensive', 'copyright', 'other');--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "review_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "rejection_reason" "moderation_reason";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "about_approved" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Every about text written before the review existed counts as approved.
UPDATE "profiles" SET "about_approved" = "about";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "about_review" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "about_submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "about_rejection" "moderation_reason";--> statement-breakpoint
CREATE INDEX "photos_review_queue" ON "photos" USING btree ("created_at","id") WHERE "photos"."review_pending";--> statement-breakpoint
CREATE INDEX "profiles_about_review_queue" ON "profiles" USING btree ("about_submitted_at","id") WHERE "profiles"."about_review" is not null;
