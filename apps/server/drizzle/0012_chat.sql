CREATE TABLE "conversation_members" (
	"profile_id" integer NOT NULL,
	"conversation_id" integer NOT NULL,
	"other_id" integer NOT NULL,
	"read_seq" integer DEFAULT 0 NOT NULL,
	"deleted_seq" integer DEFAULT 0 NOT NULL,
	"wrote" boolean DEFAULT false NOT NULL,
	CONSTRAINT "conversation_members_profile_id_conversation_id_pk" PRIMARY KEY("profile_id","conversation_id")
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" serial PRIMARY KEY NOT NULL,
	"profile_a" integer NOT NULL,
	"profile_b" integer NOT NULL,
	"fictional" boolean DEFAULT false NOT NULL,
	"last_seq" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_ordered_pair" CHECK ("conversations"."profile_a" < "conversations"."profile_b")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"sender_id" integer NOT NULL,
	"client_id" uuid NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversation_members" ADD CONSTRAINT "conversation_members_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_members" ADD CONSTRAINT "conversation_members_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_profile_a_profiles_id_fk" FOREIGN KEY ("profile_a") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_profile_b_profiles_id_fk" FOREIGN KEY ("profile_b") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_profiles_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_members_wrote" ON "conversation_members" USING btree ("profile_id") WHERE "conversation_members"."wrote";--> statement-breakpoint
CREATE INDEX "conversation_members_conversation" ON "conversation_members" USING btree ("conversation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_pair" ON "conversations" USING btree ("profile_a","profile_b");--> statement-breakpoint
CREATE INDEX "conversations_profile_b" ON "conversations" USING btree ("profile_b");--> statement-breakpoint
CREATE INDEX "conversations_fictional" ON "conversations" USING btree ("updated_at") WHERE "conversations"."fictional";--> statement-breakpoint
CREATE UNIQUE INDEX "messages_conversation_seq" ON "messages" USING btree ("conversation_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_sender_client" ON "messages" USING btree ("sender_id","client_id");