-- The profiles module's rules, as SQL functions other modules' SQL may call (issue #26); PL/pgSQL for
-- its cached plans (see 0019).

-- The member (user id) of a profile; null for an unknown id.
CREATE FUNCTION "profiles_user_of"(p_profile integer) RETURNS integer LANGUAGE plpgsql STABLE AS $$
begin
  return (select "user_id" from "profiles" where "id" = p_profile);
end
$$;
--> statement-breakpoint
-- The profile is one of the site's disclosed fictional profiles (spec `fictional_*`).
CREATE FUNCTION "profiles_fictional"(p_profile integer) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
begin
  return coalesce((select "fictional" from "profiles" where "id" = p_profile), false);
end
$$;
--> statement-breakpoint
-- The profile is active and its member visible to others.
CREATE FUNCTION "profiles_shown"(p_profile integer) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
declare
  v_user integer;
begin
  select p."user_id" into v_user from "profiles" p where p."id" = p_profile and p."status" = 'active';
  return found and not "accounts_member_hidden"(v_user);
end
$$;
