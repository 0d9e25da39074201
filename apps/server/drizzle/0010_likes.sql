CREATE TABLE "auto_likes" (
	"profile_id" integer PRIMARY KEY NOT NULL,
	"last_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "likes" (
	"liker_id" integer NOT NULL,
	"liked_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen" boolean DEFAULT false NOT NULL,
	"matched_at" timestamp with time zone,
	CONSTRAINT "likes_liker_id_liked_id_pk" PRIMARY KEY("liker_id","liked_id")
);
--> statement-breakpoint
CREATE TABLE "swipe_days" (
	"profile_id" integer PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"time_zone_changed_at" timestamp with time zone,
	"day_start" timestamp with time zone NOT NULL,
	"day_end" timestamp with time zone NOT NULL,
	"swipes" integer DEFAULT 0 NOT NULL,
	"likes" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "swipes" (
	"profile_id" integer NOT NULL,
	"target_id" integer NOT NULL,
	"liked" boolean NOT NULL,
	"swiped_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "swipes_profile_id_target_id_pk" PRIMARY KEY("profile_id","target_id")
);
--> statement-breakpoint
ALTER TABLE "auto_likes" ADD CONSTRAINT "auto_likes_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes" ADD CONSTRAINT "likes_liker_id_profiles_id_fk" FOREIGN KEY ("liker_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes" ADD CONSTRAINT "likes_liked_id_profiles_id_fk" FOREIGN KEY ("liked_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swipe_days" ADD CONSTRAINT "swipe_days_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swipes" ADD CONSTRAINT "swipes_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swipes" ADD CONSTRAINT "swipes_target_id_profiles_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "likes_received" ON "likes" USING btree ("liked_id","seen","created_at" DESC NULLS LAST,"liker_id","matched_at");--> statement-breakpoint
CREATE INDEX "likes_matches" ON "likes" USING btree ("liked_id","seen","matched_at" DESC NULLS LAST,"liker_id") WHERE "likes"."matched_at" is not null;--> statement-breakpoint
CREATE INDEX "likes_sent" ON "likes" USING btree ("liker_id","created_at" DESC NULLS LAST,"liked_id","matched_at");