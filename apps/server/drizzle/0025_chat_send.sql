-- One chat send (decision 020, issue #26): every message a member sends (a text, a gift, a GIF or a
-- photo, a first message or a later one) is stored by this function and nothing else, in one statement
-- and so one transaction: the checks, the debit, the message and the events that announce it commit
-- together or not at all. The caller (apps/server/src/modules/chat/sending.ts, beside this file's
-- reader) turns its answer into the API's. Versioned by name: a change is a new migration with
-- chat_send_v2, so nodes of the old version keep calling theirs during a rolling deploy.
--
-- Order (each step's answer, `outcome`, stops the send with nothing written):
--   1. whom: the named profile, or the other side of the sender's conversation (`not_found`);
--   2. the locks, always in this order: the sender's (one member's sends one at a time: a retry sees
--      the first one's message, two first messages cannot both pass a free member's limit), the pair's
--      (a send and a block between two profiles one at a time), the sender's credits (credits_lock);
--      every statement after them sees what committed before they were granted (READ COMMITTED takes a
--      snapshot per statement);
--   3. the sender's session, when asked (a socket's frames: `session`);
--   4. a retry: the message this sender already sent with this client_id (`again`, nothing charged);
--   5. the visibility policy (`refused`; the caller says why: an unconfirmed recipient or a hidden one);
--   6. a free member's conversation limit (`limit`): premium, or a conversation they wrote in, or
--      fewer than p_free_limit of those;
--   7. the keyed debit, `message:<client_id>` (`credits` when the balance does not cover it);
--   8. the pair's conversation, made with both sides when this is the first message;
--   9. the conversation's next sequence number, the sender's side written and read up to it, the
--      message, and one `chat.message` event per member (the caller's template with the message's id,
--      conversation and time set here), numbered in ascending user id order (`sent`).
-- The pair's lock: a send and a block between two profiles one at a time (the block hook takes it too).
CREATE FUNCTION "chat_lock_pair"(p_a integer, p_b integer) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
begin
  perform pg_advisory_xact_lock(7400001, hashtext(least(p_a, p_b)::text || ':' || greatest(p_a, p_b)::text));
end
$$;
--> statement-breakpoint
-- The free members' limit (spec §1): premium, or the conversation with p_other is one the sender wrote
-- in, or they wrote in fewer than p_free_limit conversations. chat_send_v1 checks it under its locks,
-- and the photo send before it decodes a photo (ChatSending.refuseEarly).
CREATE FUNCTION "chat_within_free_limit"(p_sender integer, p_sender_user integer, p_other integer, p_free_limit integer)
RETURNS boolean LANGUAGE plpgsql STABLE AS $$
begin
  return "credits_paid"(p_sender_user)
    or exists (select 1 from "conversation_members" s where s."profile_id" = p_sender and s."other_id" = p_other and s."wrote")
    or (select count(*) from "conversation_members" x where x."profile_id" = p_sender and x."wrote") < p_free_limit;
end
$$;
--> statement-breakpoint
CREATE FUNCTION "chat_send_v1"(
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
  p_photo_path text          -- where photos are served (CHAT_PHOTO_PATH): a photo's URL is <path><message id>.jpg
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
  if v_other is null then return json_build_object('outcome', 'not_found'); end if;
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
  if not "chat_within_free_limit"(p_sender, p_sender_user, v_other, p_free_limit) then
    return json_build_object('outcome', 'limit');
  end if;
  select c."id" into v_conversation from "conversations" c
  where c."profile_a" = least(p_sender, v_other) and c."profile_b" = greatest(p_sender, v_other);
  -- 7. The debit.
  select * into v_debit from "credits_keyed_debit"(p_sender_user, p_cost, p_reason, 'message:' || p_client::text);
  if v_debit.replayed_balance is null and v_debit.new_balance is null then
    return json_build_object('outcome', 'credits');
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
  -- 9. The message and its events.
  update "conversations" set "last_seq" = "last_seq" + 1, "updated_at" = now()
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
    'balance', coalesce(v_debit.new_balance, v_debit.replayed_balance), 'events', array_to_json(v_events));
end
$$;
