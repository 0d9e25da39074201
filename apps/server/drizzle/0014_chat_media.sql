ALTER TABLE "messages" ADD COLUMN "kind" text DEFAULT 'text' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "gift_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "gif" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "photo_key" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "photo_width" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "photo_height" integer;--> statement-breakpoint
CREATE INDEX "signup_messages_undelivered" ON "signup_messages" USING btree ("user_id") WHERE "signup_messages"."delivered_at" is null;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_kind" CHECK ("messages"."kind" in ('text', 'photo', 'gift', 'gif'));--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_kind_content" CHECK (("messages"."kind" = 'gift') = ("messages"."gift_id" is not null) and ("messages"."kind" = 'gif') = ("messages"."gif" is not null)
        and ("messages"."kind" = 'photo') = ("messages"."photo_key" is not null));