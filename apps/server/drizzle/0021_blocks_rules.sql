-- The blocks module's rule, as an SQL function other modules' SQL may call (issue #26); PL/pgSQL for
-- its cached plans (see 0019).

-- A block either way between two profiles (spec §6: neither may contact the other).
CREATE FUNCTION "blocks_between"(p_a integer, p_b integer) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
begin
  return exists (select 1 from "blocks" where "blocker_id" = p_a and "blocked_id" = p_b)
      or exists (select 1 from "blocks" where "blocker_id" = p_b and "blocked_id" = p_a);
end
$$;
