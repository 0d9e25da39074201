CREATE TABLE "operator_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"message_id" integer NOT NULL,
	"persona_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"waited_since" timestamp with time zone,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_claims" (
	"conversation_id" integer PRIMARY KEY NOT NULL,
	"staff_id" integer NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_notes" (
	"persona_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"text" text NOT NULL,
	"staff_id" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_notes_persona_id_member_id_pk" PRIMARY KEY("persona_id","member_id")
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "waiting_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operator_claims" ADD CONSTRAINT "operator_claims_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_notes" ADD CONSTRAINT "operator_notes_persona_id_profiles_id_fk" FOREIGN KEY ("persona_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_notes" ADD CONSTRAINT "operator_notes_member_id_profiles_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_answers_first" ON "operator_answers" USING btree ("answered_at") WHERE "operator_answers"."waited_since" is not null;--> statement-breakpoint
CREATE INDEX "conversations_waiting" ON "conversations" USING btree ("waiting_since","id") WHERE "conversations"."waiting_since" is not null;