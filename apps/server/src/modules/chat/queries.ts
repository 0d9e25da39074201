import type { MessageKind } from "@app/contract";
import { type Placeholder, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../platform/db/index.ts";
import type { LentRecord } from "../../platform/member-events.ts";
import type { LentDebit } from "../credits/index.ts";
import type { StoredGif } from "./schema.ts";

/** Rows of a statement (both drivers answer `{ rows }`). */
export async function rowsOf<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** A condition on a profile id column: `me` may see and contact that profile (the visibility policy's). */
export type Visible = (profileId: SQL) => SQL;
/** A lent from-item with a profile's card columns (`name`, `fictional`, ...) as `alias`. */
export type CardOf = (profileId: SQL, alias: string) => SQL;

/** The two-key advisory lock space of chat (credits, accounts and photos use others). */
const CHAT_SENDER_LOCK = 7_400_000;

/** Chat's pair locks: a hash of the unordered pair (a collision only makes two pairs wait for each other). */
const CHAT_PAIR_LOCK = 7_400_001;

/**
 * The key of a pair's lock: a hash of "<smaller id>:<larger id>", worked out by PostgreSQL so that a
 * send can lock the pair of a conversation it names before it knows the other profile.
 */
const pairLockKey = (a: SQL, b: SQL) => sql`hashtext(least(${a}, ${b})::text || ':' || greatest(${a}, ${b})::text)`;

/**
 * A send's locks, in one statement and always in this order (select-list items are evaluated left to
 * right): the sender's, which serialises one member's sends (a retried send, same client_id, then sees
 * the first one's message, and two first messages cannot both pass a free member's limit), then the
 * pair's, which serialises a send and a block between two profiles (a send checks the block after it, a
 * block deletes what a send before it stored), then the caller's `then` (further locks), then the
 * caller's `columns` (named expressions, given the other profile's id, read in the same round trip). All locks last until the
 * transaction ends. `other` is the other profile's id, or an expression finding it (the other side of a
 * conversation the sender names); the answer's `other` is that id, null when the expression found none
 * (then no pair is locked: a strict function given null does nothing).
 */
export async function lockSenderAndPair<T extends object = object>(
  tx: DbOrTx,
  sender: number,
  other: SQL,
  then?: SQL,
  columns?: (other: SQL) => SQL,
): Promise<T & { other: number | null }> {
  const [row] = await rowsOf<T & { other: number | null }>(tx, lockStatement(sender, other, then, columns));
  if (!row) throw new Error("a select from one row answers one row");
  return { ...row, other: row.other == null ? null : Number(row.other) };
}

/**
 * lockSenderAndPair's statement; `sender` may be a placeholder, and `into` (a server-side function's
 * record) goes where PL/pgSQL wants it, before the from-clause.
 */
export function lockStatement(
  sender: number | Placeholder,
  other: SQL,
  then: SQL | undefined,
  columns: ((other: SQL) => SQL) | undefined,
  into?: SQL,
): SQL {
  const otherId = sql`"o"."other"`;
  return sql`select "o"."other",
               pg_advisory_xact_lock(${CHAT_SENDER_LOCK}::int, ${sender}::int),
               pg_advisory_xact_lock(${CHAT_PAIR_LOCK}::int, ${pairLockKey(sql`${sender}::int`, otherId)})${then ? sql`, ${then}` : sql``}${columns ? sql`, ${columns(otherId)}` : sql``}
        ${into ?? sql``} from (select (${other})::int as "other") as "o"`;
}

/** The pair's lock alone (the block hook): see lockSenderAndPair. */
export async function lockPair(tx: DbOrTx, a: number, b: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CHAT_PAIR_LOCK}::int, ${pairLockKey(sql`${a}::int`, sql`${b}::int`)})`);
}

export interface MessageRow {
  id: number;
  conversation_id: number;
  seq: number;
  sender_id: number;
  client_id: string;
  kind: MessageKind;
  text: string;
  gift_id: string | null;
  gif: StoredGif | null;
  photo_key: string | null;
  photo_width: number | null;
  photo_height: number | null;
  created_at: Date | string;
}

const MESSAGE_COLUMNS = sql.raw(
  `"id", "conversation_id", "seq", "sender_id", "client_id"::text as "client_id", "kind", "text", "gift_id", "gif",
   "photo_key", "photo_width", "photo_height", "created_at"`,
);

/** What a message carries besides its text (the `messages_kind_content` check keeps them consistent). */
export type MessageContent =
  | { kind: "text"; text: string }
  | { kind: "gift"; text: string; giftId: string }
  | { kind: "gif"; gif: StoredGif }
  | { kind: "photo"; photo: { key: string; width: number; height: number } };

/** The message `sender` sent with `clientId`, if any (a retried send answers it). */
export async function findOwnMessage(db: DbOrTx, sender: number, clientId: string): Promise<MessageRow | undefined> {
  const [row] = await rowsOf<MessageRow>(
    db,
    sql`select ${MESSAGE_COLUMNS} from "messages" where "sender_id" = ${sender} and "client_id" = ${clientId}::uuid`,
  );
  return row;
}

/**
 * findOwnMessage and the caller's further `columns` (named expressions) in one statement: a send asks
 * both whether it is a retry and what it needs next, in one round trip.
 */
export async function findOwnMessageWith<T>(
  db: DbOrTx,
  sender: number,
  clientId: string,
  columns: SQL,
): Promise<T & { again: MessageRow | undefined }> {
  const [row] = await rowsOf<T & { again: MessageRow | null }>(
    db,
    sql`select (select row_to_json("own") from (select ${MESSAGE_COLUMNS} from "messages"
                 where "sender_id" = ${sender} and "client_id" = ${clientId}::uuid) as "own") as "again",
               ${columns}`,
  );
  if (!row) throw new Error("a select without from answers one row");
  return { ...row, again: row.again ?? undefined };
}

/** The other side of `me`'s conversation `id` as an expression (null when `me` is not in it). */
export function otherSide(me: number | Placeholder, id: number | Placeholder): SQL {
  return sql`(select "other_id" from "conversation_members" where "profile_id" = ${me}::int and "conversation_id" = ${id}::int)`;
}

/** otherSide as a column named "other_id". */
export function otherSideColumn(me: number, id: number): SQL {
  return sql`${otherSide(me, id)} as "other_id"`;
}

export interface SideRow {
  conversation_id: number;
  other_id: number;
  read_seq: number;
  deleted_seq: number;
  wrote: boolean;
  last_seq: number;
}

/** `me`'s side of conversation `id` (with its last sequence number), if `me` is in it. */
export async function findSide(db: DbOrTx, me: number, id: number): Promise<SideRow | undefined> {
  const [row] = await rowsOf<SideRow>(
    db,
    sql`select m."conversation_id", m."other_id", m."read_seq", m."deleted_seq", m."wrote", c."last_seq"
        from "conversation_members" m join "conversations" c on c."id" = m."conversation_id"
        where m."profile_id" = ${me} and m."conversation_id" = ${id}`,
  );
  return row;
}

/**
 * The conversation of the pair `me`–`other`, made (with both sides) when there is none. The caller holds
 * the pair's lock (lockSenderAndPair), which every send and block of the pair takes: its messages get
 * their ids and sequence numbers one send at a time under that lock, so the row itself is not locked (a
 * row lock is one more write per send).
 */
export async function findOrMakeConversation(tx: DbOrTx, me: number, other: number, card: CardOf): Promise<SideRow> {
  const [a, b] = me < other ? [me, other] : [other, me];
  // The usual case, one statement: the conversation exists with both sides.
  const existing = await pairSide(tx, me, a, b);
  if (existing) return existing;
  await tx.execute(
    sql`insert into "conversations" ("profile_a", "profile_b", "fictional")
        select ${a}, ${b}, coalesce(pa."fictional", false) or coalesce(pb."fictional", false)
        from (select 1) as "one" ${card(sql`${a}::int`, "pa")} ${card(sql`${b}::int`, "pb")}
        on conflict ("profile_a", "profile_b") do nothing`,
  );
  const [conversation] = await rowsOf<{ id: number }>(
    tx,
    sql`select "id" from "conversations" where "profile_a" = ${a} and "profile_b" = ${b}`,
  );
  if (!conversation) throw new Error("conversation vanished");
  await tx.execute(
    sql`insert into "conversation_members" ("profile_id", "conversation_id", "other_id")
        values (${me}, ${conversation.id}, ${other}), (${other}, ${conversation.id}, ${me})
        on conflict do nothing`,
  );
  const side = await findSide(tx, me, conversation.id);
  if (!side) throw new Error("conversation side vanished");
  return side;
}

/** The id of the conversation of the pair `me`–`other` as an expression (null while there is none). */
export function pairConversation(me: number | Placeholder, other: SQL): SQL {
  return sql`(select c."id" from "conversations" c
    where c."profile_a" = least(${me}::int, ${other}) and c."profile_b" = greatest(${me}::int, ${other}))`;
}

/** `me`'s side of the conversation of the pair `a` < `b`, with its last sequence number (none while either is missing). */
async function pairSide(tx: DbOrTx, me: number, a: number, b: number): Promise<SideRow | undefined> {
  const [row] = await rowsOf<SideRow>(
    tx,
    sql`select m."conversation_id", m."other_id", m."read_seq", m."deleted_seq", m."wrote", c."last_seq"
        from "conversations" c join "conversation_members" m on m."conversation_id" = c."id" and m."profile_id" = ${me}
        where c."profile_a" = ${a} and c."profile_b" = ${b}`,
  );
  return row;
}

/** The conversations `me` has written in (a free member's count). */
export async function writtenCount(db: DbOrTx, me: number): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as "n" from "conversation_members" where "profile_id" = ${me} and "wrote"`,
  );
  return Number(row?.n ?? 0);
}

/**
 * The id and time the next message of this transaction gets, as columns (`next_id`, `now`) for a send's
 * first statement (its locks): knowing them before the write lets the events that announce the message
 * be written in the same statement as the message. `now()` is the transaction's start, the message's `created_at`.
 * An id taken by a send that then fails is skipped, as with any sequence.
 */
export const NEXT_MESSAGE_COLUMNS = sql.raw(`nextval('"messages_id_seq"')::int as "next_id", now() as "now"`);

/** A message about to be written: its id and time from NEXT_MESSAGE_COLUMNS. */
export interface NewMessage {
  id: number;
  createdAt: Date | string;
  conversationId: number;
  sender: number;
  clientId: string;
  content: MessageContent;
}

/** A message's columns before it is written: all but its sequence number (what its events carry). */
export type UnsentMessage = Omit<MessageRow, "seq">;

/** The columns a message will have once written, but for its sequence number. */
export function newMessageRow(message: NewMessage): UnsentMessage {
  const { content } = message;
  return {
    id: message.id,
    conversation_id: message.conversationId,
    sender_id: message.sender,
    client_id: message.clientId,
    kind: content.kind,
    text: content.kind === "text" || content.kind === "gift" ? content.text : "",
    gift_id: content.kind === "gift" ? content.giftId : null,
    gif: content.kind === "gif" ? content.gif : null,
    photo_key: content.kind === "photo" ? content.photo.key : null,
    photo_width: content.kind === "photo" ? content.photo.width : null,
    photo_height: content.kind === "photo" ? content.photo.height : null,
    created_at: message.createdAt,
  };
}

/** The condition "checkAndWritePaidMessage wrote the message", for what its statement records beside it. */
export const MESSAGE_WRITTEN = sql.raw(`exists (select 1 from "message")`);

/** What a send's checks found (checkAndWritePaidMessage), and what it wrote when they passed. */
export interface CheckedWrite {
  /** The message this sender already sent with this client_id (a retry): nothing else was done. */
  again: MessageRow | null;
  /** The caller's condition on the other profile (may the sender write to them). */
  ok: boolean;
  /** The sender has a side in the conversation the row names, with the other profile. */
  side: boolean;
  /** Premium, or the conversation is one the sender wrote in, or fewer than the free limit. */
  within_limit: boolean;
  /** The message, when everything passed and the debit was covered. */
  message: MessageRow | null;
  earlier: unknown;
  balance: unknown;
  numbers: unknown;
}

/**
 * A send's checks and, when they all pass, its write, in one statement under the send's locks (the
 * sender's, the pair's and the credit lock, taken by an earlier statement of the transaction, so this
 * statement's snapshot sees every change that committed before them). The checks: is it a retry (the
 * stored message of this client_id), the caller's `ok` condition on the other profile, the sender's
 * side of the conversation the row names (with that profile), and a free member's conversation limit
 * (`paid`, or the conversation is one they wrote in, or they wrote in fewer than `freeLimit`). Only then
 * the debit (the credits module's, given the checks as its condition), and only when it is done the
 * conversation's next sequence number, the sender's side marked as written and read up to it, the
 * message (`row`, from newMessageRow), and the events that announce it (the caller's, recorded only
 * when MESSAGE_WRITTEN). The caller reads the checks in that order to answer why nothing was written.
 */
/**
 * The send's cheap rules read without locks, before a photo is decoded (issue #25 hole 7): whether
 * `other` is visible to `me` (`ok`), whether a new conversation is within the free members' limit, and
 * the member's credits. The send's transaction checks all of it again under its locks.
 */
export async function sendPrecheck(
  db: DbOrTx,
  send: { me: number; other: number; ok: SQL; paid: SQL; credits: SQL; freeLimit: number },
): Promise<{ ok: boolean; within_limit: boolean; credits: number }> {
  const { me, other } = send;
  const [row] = await rowsOf<{ ok: boolean; within_limit: boolean; credits: number | string }>(
    db,
    sql`select coalesce(${send.ok}, false) as "ok",
               (coalesce(${send.paid}, false)
                 or coalesce((select s."wrote" from "conversation_members" s
                               where s."profile_id" = ${me}::int and s."other_id" = ${other}::int limit 1), false)
                 or (select count(*) from "conversation_members" x where x."profile_id" = ${me}::int and x."wrote") < ${send.freeLimit}::int)
                 as "within_limit",
               coalesce(${send.credits}, 0) as "credits"`,
  );
  return { ok: row?.ok === true, within_limit: row?.within_limit === true, credits: Number(row?.credits ?? 0) };
}

export async function checkAndWritePaidMessage(
  tx: DbOrTx,
  send: {
    row: UnsentMessage;
    other: number;
    ok: SQL;
    paid: boolean;
    freeLimit: number;
    debit: (when: SQL) => LentDebit;
    events: LentRecord | null;
  },
): Promise<CheckedWrite> {
  const { row } = send;
  const [answer] = await rowsOf<CheckedWrite>(
    tx,
    checkAndWriteStatement({ ...send, row: { ...row, gif: row.gif === null ? null : JSON.stringify(row.gif) } }),
  );
  if (!answer) throw new Error("a select from one row answers one row");
  return answer;
}

/** A value of a statement that may be compiled once: the value, a placeholder, or an expression. */
type Value = string | number | boolean | null | Placeholder | SQL;

/**
 * checkAndWritePaidMessage's statement. Its values may be placeholders or expressions (a server-side
 * function's variables: chat/send-function.ts); `into` goes before its final from-clause.
 */
export function checkAndWriteStatement(
  send: {
    row: {
      [K in
        | "id"
        | "conversation_id"
        | "sender_id"
        | "client_id"
        | "kind"
        | "text"
        | "gift_id"
        | "gif"
        | "photo_key"
        | "photo_width"
        | "photo_height"]: Value;
    };
    other: Value;
    ok: SQL;
    paid: Value;
    freeLimit: Value;
    debit: (when: SQL) => LentDebit;
    events: { ctes: SQL; numbers: SQL } | null;
  },
  into?: SQL,
): SQL {
  const { row, other } = send;
  const me = row.sender_id;
  const debit = send.debit(sql`(select "passed" from "send_checks")`);
  const lent = send.events;
  return sql`with "send_checks_read" as (
          select (select row_to_json("own") from (select ${MESSAGE_COLUMNS} from "messages"
                   where "sender_id" = ${me}::int and "client_id" = ${row.client_id}::uuid) as "own") as "again",
                 coalesce(${send.ok}, false) as "ok",
                 s."profile_id" is not null as "side",
                 (${send.paid}::boolean or coalesce(s."wrote", false)
                   or (select count(*) from "conversation_members" x where x."profile_id" = ${me}::int and x."wrote") < ${send.freeLimit}::int) as "within_limit"
          from (select 1) as "one" left join "conversation_members" s
            on s."profile_id" = ${me}::int and s."conversation_id" = ${row.conversation_id}::int and s."other_id" = ${other}::int
        ), "send_checks" as (
          select *, "again" is null and "ok" and "side" and "within_limit" as "passed" from "send_checks_read"
        ), ${debit.ctes}, "next" as (
          update "conversations" set "last_seq" = "last_seq" + 1, "updated_at" = now()
          where "id" = ${row.conversation_id}::int and ${debit.done} returning "last_seq"
        ), "side" as (
          update "conversation_members" set "wrote" = true, "read_seq" = "next"."last_seq" from "next"
          where "profile_id" = ${me}::int and "conversation_id" = ${row.conversation_id}::int
        ), "message" as (
          insert into "messages" ("id", "conversation_id", "seq", "sender_id", "client_id", "kind", "text", "gift_id", "gif",
            "photo_key", "photo_width", "photo_height", "created_at")
          select ${row.id}::int, ${row.conversation_id}::int, "next"."last_seq", ${me}::int, ${row.client_id}::uuid,
            ${row.kind}::text, ${row.text}::text, ${row.gift_id}::text, ${row.gif}::jsonb,
            ${row.photo_key}::text, ${row.photo_width}::int, ${row.photo_height}::int, now()
          from "next"
          returning ${MESSAGE_COLUMNS}
        )${lent ? sql`, ${lent.ctes}` : sql``}
        select c."again", c."ok", c."side", c."within_limit",
               (select row_to_json("m") from "message" as "m") as "message", ${debit.earlier} as "earlier",
               ${debit.balance} as "balance", ${lent ? lent.numbers : sql`null::json`} as "numbers"
        ${into ?? sql``} from "send_checks" as c`;
}

export interface ChatListRow {
  id: number;
  other_id: number;
  name: string;
  fictional: boolean;
  updated_at: Date | string;
  unread: number;
  last_kind: MessageKind | null;
  last_text: string | null;
  last_sender: number | null;
  last_at: Date | string | null;
}

/** Unread messages of one side: the other's, after what `m` read or deleted, within the retention window. */
const unreadOf = (cutoff: Date) =>
  sql`(select count(*)::int from "messages" x where x."conversation_id" = m."conversation_id"
        and x."sender_id" = m."other_id" and x."seq" > greatest(m."read_seq", m."deleted_seq")
        and x."created_at" > ${cutoff.toISOString()}::timestamptz)`;

/** `me`'s chat list: conversations with a message after their deletion mark, other profile visible, latest first. */
export function chatListStatement(
  me: number,
  visible: Visible,
  unconfirmed: Visible,
  card: CardOf,
  cutoff: Date,
  previewLength: number,
  limit: number,
): SQL {
  return sql`select c."id", m."other_id", card."name", card."fictional", c."updated_at", ${unreadOf(cutoff)} as "unread",
        ${unconfirmed(sql`m."other_id"`)} as "other_unconfirmed",
        last."kind" as "last_kind", last."text" as "last_text", last."sender_id" as "last_sender", last."created_at" as "last_at"
      from "conversation_members" m
      join "conversations" c on c."id" = m."conversation_id"
      ${card(sql`m."other_id"`, "card")}
      left join lateral (
        select x."kind", left(x."text", ${previewLength}) as "text", x."sender_id", x."created_at" from "messages" x
        where x."conversation_id" = c."id" and x."seq" > m."deleted_seq" and x."created_at" > ${cutoff.toISOString()}::timestamptz
        order by x."seq" desc limit 1
      ) as last on true
      where m."profile_id" = ${me} and c."last_seq" > m."deleted_seq" and ${visible(sql`m."other_id"`)}
      order by c."updated_at" desc, c."id" desc
      limit ${limit}`;
}

/** The unread badge: unread messages over `me`'s listed conversations. */
export function unreadTotalStatement(me: number, visible: Visible, cutoff: Date): SQL {
  return sql`select coalesce(sum(${unreadOf(cutoff)}), 0)::int as "n"
      from "conversation_members" m join "conversations" c on c."id" = m."conversation_id"
      where m."profile_id" = ${me} and c."last_seq" > m."deleted_seq" and ${visible(sql`m."other_id"`)}`;
}

/** The other profile's card columns and whether their address is unconfirmed, when `me` may see them. */
export async function chatProfile(
  db: DbOrTx,
  other: number,
  visible: Visible,
  unconfirmed: Visible,
  card: CardOf,
): Promise<{ name: string; fictional: boolean; unconfirmed: boolean } | undefined> {
  const [row] = await rowsOf<{ name: string; fictional: boolean; unconfirmed: boolean }>(
    db,
    sql`select card."name", card."fictional", ${unconfirmed(sql`${other}::int`)} as "unconfirmed"
        from (select 1) as "one" ${card(sql`${other}::int`, "card")}
        where ${visible(sql`${other}::int`)}`,
  );
  return row;
}

/** One page of a conversation as `side` sees it: after their deletion mark, within the window, newest first. */
export async function messagePage(
  db: DbOrTx,
  side: Pick<SideRow, "conversation_id" | "deleted_seq">,
  cutoff: Date,
  before: number | undefined,
  limit: number,
): Promise<MessageRow[]> {
  return rowsOf<MessageRow>(
    db,
    sql`select ${MESSAGE_COLUMNS} from "messages"
        where "conversation_id" = ${side.conversation_id} and "seq" > ${side.deleted_seq}
          and "created_at" > ${cutoff.toISOString()}::timestamptz
          ${before === undefined ? sql`` : sql`and "id" < ${before}`}
        order by "seq" desc limit ${limit}`,
  );
}

/**
 * Whether `side` had messages it would otherwise see that are older than the window: past the window or
 * already purged (ChatService.purgeExpired). Sequences have no gaps (each taken under the conversation's
 * lock), so the first visible message's `seq` says how many came before it.
 */
export async function hasHiddenOlder(db: DbOrTx, side: Pick<SideRow, "conversation_id" | "deleted_seq">, cutoff: Date) {
  const [row] = await rowsOf<{ found: boolean }>(
    db,
    sql`select coalesce(
          (select min("seq") from "messages" where "conversation_id" = ${side.conversation_id}
            and "seq" > ${side.deleted_seq} and "created_at" > ${cutoff.toISOString()}::timestamptz),
          (select "last_seq" + 1 from "conversations" where "id" = ${side.conversation_id})
        ) > ${side.deleted_seq} + 1 as "found"`,
  );
  return row?.found === true;
}

/** Deletes up to `limit` messages created before `cutoff`; answers how many went and their photos' keys. */
export async function deleteMessagesBefore(
  db: DbOrTx,
  cutoff: Date,
  limit: number,
): Promise<{ deleted: number; photoKeys: string[] }> {
  const rows = await rowsOf<{ photo_key: string | null }>(
    db,
    sql`delete from "messages" where "id" in (
          select "id" from "messages" where "created_at" <= ${cutoff.toISOString()}::timestamptz limit ${limit})
        returning "photo_key"`,
  );
  return { deleted: rows.length, photoKeys: rows.flatMap((row) => row.photo_key ?? []) };
}

/** The photo keys of the pair's conversation (a block deletes it: the files go after commit). */
export async function pairPhotoKeys(tx: DbOrTx, a: number, b: number): Promise<string[]> {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const rows = await rowsOf<{ photo_key: string }>(
    tx,
    sql`select x."photo_key" from "messages" x join "conversations" c on c."id" = x."conversation_id"
        where c."profile_a" = ${lo} and c."profile_b" = ${hi} and x."photo_key" is not null`,
  );
  return rows.map((row) => row.photo_key);
}

/** The photo keys of every conversation of the profile in `profileId` (its account is being erased). */
export async function profilePhotoKeys(db: DbOrTx, profileId: SQL): Promise<string[]> {
  const rows = await rowsOf<{ photo_key: string }>(
    db,
    sql`select x."photo_key" from "messages" x join "conversations" c on c."id" = x."conversation_id"
        where ${profileId} in (c."profile_a", c."profile_b") and x."photo_key" is not null`,
  );
  return rows.map((row) => row.photo_key);
}

/**
 * The storage key of photo message `messageId` when `me` may see it: a member of its conversation who
 * has not deleted it, within the retention window, the other member still listable to `me`.
 */
export async function visiblePhotoKey(
  db: DbOrTx,
  me: number,
  messageId: number,
  cutoff: Date,
  listable: Visible,
): Promise<string | null> {
  const [row] = await rowsOf<{ photo_key: string }>(
    db,
    sql`select x."photo_key" from "messages" x
        join "conversation_members" m on m."conversation_id" = x."conversation_id" and m."profile_id" = ${me}
        where x."id" = ${messageId} and x."kind" = 'photo' and x."seq" > m."deleted_seq"
          and x."created_at" > ${cutoff.toISOString()}::timestamptz and ${listable(sql`m."other_id"`)}`,
  );
  return row?.photo_key ?? null;
}

/** The id of `me`'s latest message in the conversation that the other side has read, if any. */
export async function readUpTo(db: DbOrTx, conversationId: number, me: number): Promise<number | null> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`select x."id" from "messages" x join "conversation_members" o
          on o."conversation_id" = x."conversation_id" and o."profile_id" = (
            select "other_id" from "conversation_members" where "profile_id" = ${me} and "conversation_id" = ${conversationId})
        where x."conversation_id" = ${conversationId} and x."sender_id" = ${me} and x."seq" <= o."read_seq"
        order by x."seq" desc limit 1`,
  );
  return row ? Number(row.id) : null;
}

/**
 * `me` read conversation `id` to its end: the read mark moves, and when it moved, answers the latest
 * message's id, whether unread messages were cleared and the other member's user id (for the events).
 */
export async function markRead(
  tx: DbOrTx,
  me: number,
  id: number,
  cutoff: Date,
  userIdOf: (profileId: SQL) => SQL,
): Promise<{ message_id: number; cleared: number; other_user: number | null } | undefined> {
  const [row] = await rowsOf<{ message_id: number | null; cleared: number; other_user: number | null }>(
    tx,
    sql`with "before" as (
          select m."profile_id", m."conversation_id", m."other_id", ${unreadOf(cutoff)} as "unread"
          from "conversation_members" m where m."profile_id" = ${me} and m."conversation_id" = ${id} for update
        ), "moved" as (
          update "conversation_members" m set "read_seq" = c."last_seq"
          from "conversations" c, "before" b
          where c."id" = m."conversation_id" and m."profile_id" = b."profile_id" and m."conversation_id" = b."conversation_id"
            and m."read_seq" < c."last_seq"
          returning c."last_seq", m."other_id"
        )
        select (select x."id" from "messages" x where x."conversation_id" = ${id} and x."seq" = moved."last_seq") as "message_id",
          (select "unread" from "before") as "cleared", ${userIdOf(sql`moved."other_id"`)} as "other_user"
        from "moved"`,
  );
  if (!row || row.message_id === null) return undefined;
  return { message_id: Number(row.message_id), cleared: Number(row.cleared), other_user: row.other_user };
}

/** `me` deletes conversation `id` from their list (up to its latest message); whether unread ones went with it. */
export async function deleteForMember(tx: DbOrTx, me: number, id: number, cutoff: Date): Promise<{ unread: number } | undefined> {
  const [row] = await rowsOf<{ unread: number }>(
    tx,
    sql`with "before" as (
          select m."profile_id", m."conversation_id", ${unreadOf(cutoff)} as "unread"
          from "conversation_members" m where m."profile_id" = ${me} and m."conversation_id" = ${id} for update
        )
        update "conversation_members" m set "deleted_seq" = c."last_seq", "read_seq" = greatest(m."read_seq", c."last_seq")
        from "conversations" c, "before" b
        where c."id" = m."conversation_id" and m."profile_id" = b."profile_id" and m."conversation_id" = b."conversation_id"
        returning b."unread"`,
  );
  return row ? { unread: Number(row.unread) } : undefined;
}

/** Deletes the pair's conversation (a block, spec §6) with its messages; answers it with each side's unread count. */
export async function deletePairConversation(
  tx: DbOrTx,
  a: number,
  b: number,
  cutoff: Date,
): Promise<{ id: number; unread: Map<number, number> } | undefined> {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const sides = await rowsOf<{ conversation_id: number; profile_id: number; unread: number }>(
    tx,
    sql`select m."conversation_id", m."profile_id", ${unreadOf(cutoff)} as "unread"
        from "conversations" c join "conversation_members" m on m."conversation_id" = c."id"
        where c."profile_a" = ${lo} and c."profile_b" = ${hi} and c."last_seq" > m."deleted_seq"
        for update of c`,
  );
  const [deleted] = await rowsOf<{ id: number }>(
    tx,
    sql`delete from "conversations" where "profile_a" = ${lo} and "profile_b" = ${hi} returning "id"`,
  );
  if (!deleted) return undefined;
  return { id: deleted.id, unread: new Map(sides.map((s) => [Number(s.profile_id), Number(s.unread)])) };
}
