-- The chat send, second version (issue #27): chat_send_v1 (0025, whose comment gives the order of its
-- steps) with one more argument, p_persona, and the operators' queue kept up to date. Nodes of the old
-- version keep calling chat_send_v1 during a rolling deploy (their members' messages do not start a
-- wait until the new nodes take over; the backfill below covers what was there before).
--
-- p_persona: an operator answers as the fictional profile p_sender (modules/operators). Then the
-- sender must be fictional (`not_found` otherwise), it has no session to check (p_check_session
-- false), the free members' limit does not apply and nothing is debited, no ledger row either (the
-- member pays nothing for answers, and the fictional member's balance is no figure of anyone's); the
-- answer carries `waited_since`, what conversations.waiting_since was before it (the figures' time to
-- answer), and no balance.
--
-- conversations.waiting_since (0027): a member's message in a conversation with a fictional profile
-- sets it to now unless it is set (the wait counts from their first unanswered message); the
-- profile's answer clears it. In a conversation between members it stays null, so their updates of
-- the row change no indexed column and stay heap-only (decision 020, "Write cost").
CREATE FUNCTION "chat_send_v2"(
  p_sender integer,          -- the sender's profile
  p_sender_user integer,     -- the sender's user id (their credits, their own tabs' event)
  p_to_profile integer,      -- whom, by profile (null: by p_conversation)
  p_conversation integer,    -- whom, by one of the sender's conversations
  p_check_session boolean,   -- check p_session_key under the locks
  p_session_key text,        -- null with p_check_session: no valid session
  p_client uuid,             -- the client's id of this message: a retry sends it again
  p_kind text,               -- text, gift, gif or photo (the messages_kind_content check keeps the rest consistent)
  p_text text,
  p_gift text,
  p_gif jsonb,
  p_photo_key text,          -- the photo's file, stored by the caller before this call
  p_photo_width integer,
  p_photo_height integer,
  p_cost integer,            -- credits this message costs (>= 0)
  p_reason text,             -- the ledger's reason: message, gift or photo
  p_free_limit integer,      -- LIMITS.freeConversations
  p_event_other jsonb,       -- the chat.message event as the recipient sees it, before its id, conversation and time
  p_event_me jsonb,          -- the same as the sender's own tabs see it
  p_photo_path text,         -- where photos are served (CHAT_PHOTO_PATH): a photo's URL is <path><message id>.jpg
  p_persona boolean          -- an operator answers as the fictional profile p_sender (no session, no limit, no debit)
) RETURNS json LANGUAGE plpgsql VOLATILE AS $$
declare
  v_other integer;
  v_other_user integer;
  v_conversation integer;
  v_debit record;
  v_seq integer;
  v_message json;
  v_created text;
  v_events json[] := '{}';
  v_user integer;
  v_event jsonb;
  v_waited timestamptz;
  v_balance integer;
begin
  -- 1. Whom.
  if p_to_profile is not null then
    v_other := p_to_profile;
  else
    select m."other_id" into v_other from "conversation_members" m
    where m."profile_id" = p_sender and m."conversation_id" = p_conversation;
  end if;
  -- 2. The locks.
  perform pg_advisory_xact_lock(7400000, p_sender);
  if v_other is null or (p_persona and not "profiles_fictional"(p_sender)) then
    return json_build_object('outcome', 'not_found');
  end if;
  perform "chat_lock_pair"(p_sender, v_other);
  perform "credits_lock"(p_sender_user);
  -- 3. The session.
  if p_check_session and not coalesce("accounts_session_stands"(p_session_key), false) then
    return json_build_object('outcome', 'session');
  end if;
  -- 4. A retry.
  select row_to_json(x) into v_message from (
    select "id", "conversation_id", "seq", "sender_id", "client_id", "kind", "text", "gift_id", "gif",
           "photo_key", "photo_width", "photo_height", "created_at"
    from "messages" where "sender_id" = p_sender and "client_id" = p_client) x;
  if v_message is not null then return json_build_object('outcome', 'again', 'message', v_message); end if;
  -- 5. May the sender write to them.
  if not "visibility_may_contact"(p_sender, v_other) then
    return json_build_object('outcome', 'refused', 'other', v_other);
  end if;
  -- 6. The free members' limit.
  if not p_persona and not "chat_within_free_limit"(p_sender, p_sender_user, v_other, p_free_limit) then
    return json_build_object('outcome', 'limit');
  end if;
  select c."id" into v_conversation from "conversations" c
  where c."profile_a" = least(p_sender, v_other) and c."profile_b" = greatest(p_sender, v_other);
  -- 7. The debit (none for a fictional profile: nobody pays for its answers).
  if not p_persona then
    select * into v_debit from "credits_keyed_debit"(p_sender_user, p_cost, p_reason, 'message:' || p_client::text);
    if v_debit.replayed_balance is null and v_debit.new_balance is null then
      return json_build_object('outcome', 'credits');
    end if;
    v_balance := coalesce(v_debit.new_balance, v_debit.replayed_balance);
  end if;
  -- 8. The conversation, with both sides, for a first message.
  if v_conversation is null then
    insert into "conversations" ("profile_a", "profile_b", "fictional")
    values (least(p_sender, v_other), greatest(p_sender, v_other), "profiles_fictional"(p_sender) or "profiles_fictional"(v_other))
    on conflict ("profile_a", "profile_b") do nothing;
    select c."id" into v_conversation from "conversations" c
    where c."profile_a" = least(p_sender, v_other) and c."profile_b" = greatest(p_sender, v_other);
    insert into "conversation_members" ("profile_id", "conversation_id", "other_id")
    values (p_sender, v_conversation, v_other), (v_other, v_conversation, p_sender)
    on conflict do nothing;
  end if;
  -- 9. The message and its events. A member's message to a fictional profile starts its wait (kept
  -- from their first unanswered one), the profile's answer ends it.
  if p_persona then
    select c."waiting_since" into v_waited from "conversations" c where c."id" = v_conversation;
  end if;
  update "conversations" set "last_seq" = "last_seq" + 1, "updated_at" = now(),
    "waiting_since" = case when "fictional" and not p_persona then coalesce("waiting_since", now()) end
  where "id" = v_conversation returning "last_seq" into v_seq;
  update "conversation_members" set "wrote" = true, "read_seq" = v_seq
  where "profile_id" = p_sender and "conversation_id" = v_conversation;
  with "written" as (
    insert into "messages" ("conversation_id", "seq", "sender_id", "client_id", "kind", "text", "gift_id", "gif",
      "photo_key", "photo_width", "photo_height")
    values (v_conversation, v_seq, p_sender, p_client, p_kind, p_text, p_gift, p_gif, p_photo_key, p_photo_width, p_photo_height)
    returning "id", "conversation_id", "seq", "sender_id", "client_id", "kind", "text", "gift_id", "gif",
              "photo_key", "photo_width", "photo_height", "created_at"
  )
  select row_to_json(w) into v_message from "written" w;
  v_created := to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  v_other_user := "profiles_user_of"(v_other);
  for v_user, v_event in
    select e."user_id", e."event" from (values (v_other_user, p_event_other), (p_sender_user, p_event_me)) as e("user_id", "event")
    where e."user_id" is not null order by e."user_id"
  loop
    v_event := jsonb_set(jsonb_set(jsonb_set(jsonb_set(v_event,
      '{conversation_id}', to_jsonb(v_conversation)),
      '{message,conversation_id}', to_jsonb(v_conversation)),
      '{message,id}', to_jsonb((v_message->>'id')::integer)),
      '{message,created_at}', to_jsonb(v_created));
    if p_kind = 'photo' then
      v_event := jsonb_set(v_event, '{message,photo,url}', to_jsonb(p_photo_path || (v_message->>'id') || '.jpg'));
    end if;
    v_events := v_events || json_build_array(v_user, "member_events_record"(v_user, v_event), v_event);
  end loop;
  return json_build_object('outcome', 'sent', 'message', v_message,
    'balance', v_balance,
    'waited_since', v_waited, 'events', array_to_json(v_events));
end
$$;

--> statement-breakpoint
-- The waits already there: since the member's first message after the fictional profile's last one.
UPDATE "conversations" c SET "waiting_since" = (
  select min(m."created_at") from "messages" m
  where m."conversation_id" = c."id" and m."seq" > coalesce((
    select max(f."seq") from "messages" f where f."conversation_id" = c."id" and "profiles_fictional"(f."sender_id")), 0))
WHERE c."fictional";
