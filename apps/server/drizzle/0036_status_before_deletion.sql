ALTER TABLE "users" ADD COLUMN "status_before_deletion" "user_status";--> statement-breakpoint
-- Accounts already waiting for deletion: one whose profile was never activated (signup creates it
-- disabled, only the address's confirmation activates it) had not confirmed its address.
UPDATE "users" SET "status_before_deletion" = CASE
  WHEN EXISTS (SELECT 1 FROM "profiles" p WHERE p."user_id" = "users"."id" AND p."status" = 'disabled') THEN 'not_confirmed'::"user_status"
  ELSE 'active'::"user_status" END
WHERE "status" = 'pending_deletion';
