DROP INDEX "profiles_search";--> statement-breakpoint
CREATE INDEX "users_hidden" ON "users" USING btree ("id") WHERE "users"."invisible" or "users"."status" = 'pending_deletion';--> statement-breakpoint
CREATE INDEX "profiles_listed_recent" ON "profiles" USING btree ("status","gender","country","created_at","id","birth_date");--> statement-breakpoint
CREATE INDEX "profiles_listed_all_recent" ON "profiles" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "profiles_search" ON "profiles" USING btree ("status","country","gender","birth_date","user_id","id");