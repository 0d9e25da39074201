-- The member events' numbering and insert (MemberEvents.record), as an SQL function other modules' SQL
-- may call (issue #26; PL/pgSQL for its cached plans, see 0019): the member's next sequence number,
-- and the event stored under it. Callers that record for several members in one transaction call it
-- in ascending user id order (the sequence rows are then locked in one order: two sends between the
-- same members wait instead of deadlocking).
CREATE FUNCTION "member_events_record"(p_user integer, p_event jsonb) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
declare
  v_seq bigint;
begin
  insert into "member_event_seqs" as s ("user_id", "seq") values (p_user, 1)
  on conflict ("user_id") do update set "seq" = s."seq" + 1
  returning s."seq" into v_seq;
  insert into "member_events" ("user_id", "seq", "event") values (p_user, v_seq, p_event);
  return v_seq;
end
$$;
