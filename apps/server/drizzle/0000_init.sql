CREATE TYPE "public"."user_status" AS ENUM('not_confirmed', 'active', 'pending_deletion');--> statement-breakpoint
CREATE TYPE "public"."photo_status" AS ENUM('pending', 'active', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."body_type" AS ENUM('slim', 'normal', 'fat');--> statement-breakpoint
CREATE TYPE "public"."eye_color" AS ENUM('blue', 'green', 'hazel', 'brown');--> statement-breakpoint
CREATE TYPE "public"."gender" AS ENUM('male', 'female');--> statement-breakpoint
CREATE TYPE "public"."hair_color" AS ENUM('black', 'blond', 'dark_blond', 'brunette', 'brown', 'dark_brown', 'gray', 'red', 'white', 'bald', 'other');--> statement-breakpoint
CREATE TYPE "public"."profile_status" AS ENUM('active', 'disabled');--> statement-breakpoint
CREATE TYPE "public"."relationship_status" AS ENUM('single', 'married', 'divorced', 'widowed', 'unmarried', 'living_together');--> statement-breakpoint
CREATE TYPE "public"."sexuality" AS ENUM('hetero', 'gay', 'lesbian', 'bi');--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text,
	"password_hash" text,
	"status" "user_status" DEFAULT 'not_confirmed' NOT NULL,
	"paid_user" boolean DEFAULT false NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"notifications_disabled" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"invisible" boolean DEFAULT false NOT NULL,
	"fictional" boolean DEFAULT false NOT NULL,
	"signup_date" timestamp with time zone DEFAULT now() NOT NULL,
	"deletion_requested_at" timestamp with time zone,
	CONSTRAINT "users_credits_nonnegative" CHECK ("users"."credits" >= 0),
	CONSTRAINT "users_email_lowercase" CHECK ("users"."email" = lower("users"."email"))
);
--> statement-breakpoint
CREATE TABLE "photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"profile_id" integer NOT NULL,
	"filename" text NOT NULL,
	"thumb_filename" text NOT NULL,
	"status" "photo_status" DEFAULT 'pending' NOT NULL,
	"is_main" boolean DEFAULT false NOT NULL,
	"private" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" "profile_status" DEFAULT 'active' NOT NULL,
	"name" text NOT NULL,
	"gender" "gender" NOT NULL,
	"sexuality" "sexuality" DEFAULT 'hetero' NOT NULL,
	"birth_date" date NOT NULL,
	"country" text NOT NULL,
	"region" text,
	"city" text,
	"latitude" double precision,
	"longitude" double precision,
	"hair_color" "hair_color",
	"eye_color" "eye_color",
	"body_type" "body_type",
	"relationship_status" "relationship_status",
	"tattoos" boolean,
	"interests" text[] DEFAULT '{}'::text[] NOT NULL,
	"about" text DEFAULT '' NOT NULL,
	"fictional" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"kvk" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"tradenames" text[] DEFAULT '{}'::text[] NOT NULL,
	"vat_numbers" text[] DEFAULT '{}'::text[] NOT NULL,
	"support_phone" text NOT NULL,
	"delete_discount" integer DEFAULT 0 NOT NULL,
	"added" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"name" text NOT NULL,
	"index_title" text NOT NULL,
	"description" text NOT NULL,
	"domain_language" text,
	"support_email" text NOT NULL,
	"company_id" integer NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sites_host_lowercase" CHECK ("sites"."host" = lower("sites"."host"))
);
--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "photos_profile" ON "photos" USING btree ("profile_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "photos_one_main" ON "photos" USING btree ("profile_id") WHERE "photos"."is_main";--> statement-breakpoint
CREATE UNIQUE INDEX "photos_filename_unique" ON "photos" USING btree ("filename");--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_user_unique" ON "profiles" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "profiles_search" ON "profiles" USING btree ("status","gender","country","birth_date");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_host_unique" ON "sites" USING btree (lower("host"));--> statement-breakpoint
CREATE UNIQUE INDEX "sites_one_default" ON "sites" USING btree ("is_default") WHERE "sites"."is_default";