-- Issue #28: the member events that may become a notification are queued in the transaction that records
-- them (member_events_record, first made in 0024; the chat send's SQL function calls it too), so that a
-- committed message, like or match is never missed and a rolled-back one never notified. Only the
-- member it concerns: a chat.message to its recipient (not the sender's other tabs: from_me), a like,
-- and a match to the member who did not make it (the maker is looking at it). The notifications module's
-- drain job reads the event back by (user_id, seq) and deletes the queue row.
CREATE OR REPLACE FUNCTION "member_events_record"(p_user integer, p_event jsonb) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
declare
  v_seq bigint;
  v_type text := p_event->>'type';
begin
  insert into "member_event_seqs" as s ("user_id", "seq") values (p_user, 1)
  on conflict ("user_id") do update set "seq" = s."seq" + 1
  returning s."seq" into v_seq;
  insert into "member_events" ("user_id", "seq", "event") values (p_user, v_seq, p_event);
  if (v_type = 'chat.message' and not coalesce((p_event->'message'->>'from_me')::boolean, false))
     or v_type = 'like.received'
     or (v_type = 'like.match' and not coalesce((p_event->>'initiator')::boolean, false)) then
    insert into "notification_queue" ("user_id", "seq") values (p_user, v_seq);
  end if;
  return v_seq;
end
$$;
