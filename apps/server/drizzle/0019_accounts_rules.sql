-- The accounts module's rules, as SQL functions other modules' SQL may call (issue #26). PL/pgSQL, not
-- `language sql`: PostgreSQL 15 inlines an SQL function only when its body has no subquery, and plans
-- a non-inlined one again on every call, where PL/pgSQL keeps its statements' plans for the session
-- (pgbench of one chat_send_v1 call, one client: 1,360 sends/s with PL/pgSQL, 560-830 with these as
-- `language sql`; decision 020).

-- The session of this token hash (AccountService.sessionKey) still stands: not ended, not expired,
-- its account not pending deletion (what `member` checks for a request).
CREATE FUNCTION "accounts_session_stands"(p_key text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
begin
  return exists (
    select 1 from "sessions" s join "users" u on u."id" = s."user_id"
    where s."token_hash" = p_key and s."expires_at" > now() and u."status" <> 'pending_deletion');
end
$$;
--> statement-breakpoint
-- Others may not see this member: invisible, or pending deletion (false for an unknown id).
CREATE FUNCTION "accounts_member_hidden"(p_user integer) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
begin
  return exists (select 1 from "users" u where u."id" = p_user and (u."invisible" or u."status" = 'pending_deletion'));
end
$$;
