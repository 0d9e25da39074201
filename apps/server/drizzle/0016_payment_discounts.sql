ALTER TABLE "payments" ADD COLUMN "discount_percentage" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "original_amount_cents" integer;