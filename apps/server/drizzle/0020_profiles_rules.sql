-- The profiles module's rules, as SQL functions other modules' SQL may call (issue #26).

-- The member (user id) of a profile; null for an unknown id.
CREATE FUNCTION "profiles_user_of"(p_profile integer) RETURNS integer LANGUAGE sql STABLE AS $$
  select "user_id" from "profiles" where "id" = p_profile
$$;
--> statement-breakpoint
-- The profile is one of the site's disclosed fictional profiles (spec `fictional_*`).
CREATE FUNCTION "profiles_fictional"(p_profile integer) RETURNS boolean LANGUAGE sql STABLE AS $$
  select coalesce((select "fictional" from "profiles" where "id" = p_profile), false)
$$;
--> statement-breakpoint
-- The profile is active and its member visible to others.
CREATE FUNCTION "profiles_shown"(p_profile integer) RETURNS boolean LANGUAGE sql STABLE AS $$
  select coalesce((select p."status" = 'active' and not "accounts_member_hidden"(p."user_id")
                   from "profiles" p where p."id" = p_profile), false)
$$;
