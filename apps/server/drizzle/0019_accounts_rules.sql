-- The accounts module's rules, as SQL functions other modules' SQL may call (issue #26). Small
-- `language sql stable` functions: PostgreSQL runs them inside the caller's statement and snapshot.

-- The session of this token hash (AccountService.sessionKey) still stands: not ended, not expired,
-- its account not pending deletion (what `member` checks for a request).
CREATE FUNCTION "accounts_session_stands"(p_key text) RETURNS boolean LANGUAGE sql STABLE AS $$
  select exists (
    select 1 from "sessions" s join "users" u on u."id" = s."user_id"
    where s."token_hash" = p_key and s."expires_at" > now() and u."status" <> 'pending_deletion')
$$;
--> statement-breakpoint
-- Others may not see this member: invisible, or pending deletion (false for an unknown id).
CREATE FUNCTION "accounts_member_hidden"(p_user integer) RETURNS boolean LANGUAGE sql STABLE AS $$
  select exists (select 1 from "users" u where u."id" = p_user and (u."invisible" or u."status" = 'pending_deletion'))
$$;
