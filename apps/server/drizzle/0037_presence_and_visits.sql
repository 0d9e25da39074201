CREATE TABLE "profile_visits" (
	"visited_id" integer NOT NULL,
	"visitor_id" integer NOT NULL,
	"visited_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profile_visits_visited_id_visitor_id_pk" PRIMARY KEY("visited_id","visitor_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "hide_presence" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "profile_visits" ADD CONSTRAINT "profile_visits_visited_id_profiles_id_fk" FOREIGN KEY ("visited_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_visits" ADD CONSTRAINT "profile_visits_visitor_id_profiles_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profile_visits_newest" ON "profile_visits" USING btree ("visited_id","visited_at" DESC NULLS LAST,"visitor_id");--> statement-breakpoint
CREATE INDEX "profile_visits_time" ON "profile_visits" USING btree ("visited_at");--> statement-breakpoint
CREATE INDEX "users_presence_hidden" ON "users" USING btree ("id") WHERE "users"."invisible" or "users"."hide_presence";