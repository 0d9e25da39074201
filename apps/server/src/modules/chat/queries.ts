import type { MessageKind } from "@app/contract";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../platform/db/index.ts";
import type { StoredGif } from "./schema.ts";

/** A condition on a profile id column: `me` may see and contact that profile (the visibility policy's). */
export type Visible = (profileId: SQL) => SQL;
/** A lent from-item with a profile's card columns (`name`, `fictional`, ...) as `alias`. */
export type CardOf = (profileId: SQL, alias: string) => SQL;

/**
 * The pair's lock (`chat_lock_pair`, migration 0025), which chat_send_v1 takes too: a block either
 * waits for a send between the two profiles or makes the send wait and find the block.
 */
export async function lockPair(tx: DbOrTx, a: number, b: number): Promise<void> {
  await tx.execute(sql`select chat_lock_pair(${a}::int, ${b}::int)`);
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

/**
 * The message `sender` sent with `clientId`, if any (a retried send answers it), and the caller's
 * further `columns` (named expressions) in one statement: a send asks both in one round trip.
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
export function otherSide(me: number, id: number): SQL {
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

// The data export (issue #27)

export interface ExportConversationRow {
  id: number;
  other_id: number;
  fictional: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  read_seq: number;
  deleted_seq: number;
}

/** Every conversation `me` is a member of, with their side of it. */
export function conversationsOfProfile(db: DbOrTx, me: number): Promise<ExportConversationRow[]> {
  return rowsOf<ExportConversationRow>(
    db,
    sql`select c."id", m."other_id", c."fictional", c."created_at", c."updated_at", m."read_seq", m."deleted_seq"
        from "conversation_members" m join "conversations" c on c."id" = m."conversation_id"
        where m."profile_id" = ${me} order by c."id"`,
  );
}

export interface ExportMessageRow {
  conversation_id: number;
  seq: number;
  sender_id: number;
  kind: string;
  text: string;
  gift_id: string | null;
  gif: { title: string; url: string } | null;
  photo_key: string | null;
  created_at: Date | string;
}

/** Every message of the conversations `me` is a member of (both sides': the conversation as the site holds it). */
export function messagesOfProfile(db: DbOrTx, me: number): Promise<ExportMessageRow[]> {
  return rowsOf<ExportMessageRow>(
    db,
    sql`select x."conversation_id", x."seq", x."sender_id", x."kind", x."text", x."gift_id", x."gif", x."photo_key", x."created_at"
        from "messages" x join "conversation_members" m on m."conversation_id" = x."conversation_id"
        where m."profile_id" = ${me} order by x."conversation_id", x."seq"`,
  );
}

/** A message as a report keeps it (issue #27): what it said or showed, and who sent it. */
export interface ReceivedMessageRow {
  id: number;
  sender_id: number;
  kind: MessageKind;
  text: string;
  gift_id: string | null;
  gif: StoredGif | null;
  photo_key: string | null;
  created_at: Date | string;
}

/**
 * Message `messageId` when `me` received it and still sees it: in one of `me`'s conversations, sent by
 * the other member, not deleted by `me`, within the retention window. Null for anything else.
 */
export async function receivedMessage(
  db: DbOrTx,
  me: number,
  messageId: number,
  cutoff: Date,
): Promise<ReceivedMessageRow | null> {
  const [row] = await rowsOf<ReceivedMessageRow>(
    db,
    sql`select x."id", x."sender_id", x."kind", x."text", x."gift_id", x."gif", x."photo_key", x."created_at" from "messages" x
        join "conversation_members" m on m."conversation_id" = x."conversation_id" and m."profile_id" = ${me}
        where x."id" = ${messageId} and x."sender_id" = m."other_id" and x."seq" > m."deleted_seq"
          and x."created_at" > ${cutoff.toISOString()}::timestamptz`,
  );
  return row ?? null;
}

/** What a notification of `me`'s conversation says (issue #28): the other side, unread counts, first contact. */
export interface NoticeRow {
  other_id: number;
  unread: number;
  latest_unread: number | null;
  earlier_received: boolean;
}

export async function noticeOf(
  db: DbOrTx,
  me: number,
  id: number,
  messageId: number,
  cutoff: Date,
): Promise<NoticeRow | undefined> {
  const [row] = await rowsOf<NoticeRow>(
    db,
    sql`select m."other_id", ${unreadOf(cutoff)} as "unread",
          (select max(x."id") from "messages" x where x."conversation_id" = m."conversation_id"
            and x."sender_id" = m."other_id" and x."seq" > greatest(m."read_seq", m."deleted_seq")) as "latest_unread",
          exists (select 1 from "messages" x where x."conversation_id" = m."conversation_id"
            and x."sender_id" = m."other_id" and x."id" < ${messageId}) as "earlier_received"
        from "conversation_members" m where m."profile_id" = ${me} and m."conversation_id" = ${id}`,
  );
  return row;
}

/**
 * Members with messages unread since before `olderThan` (and within the window), by profile id after
 * `afterProfile`: how many such messages, and the newest one's id (a reminder's batch).
 */
export function staleUnread(
  db: DbOrTx,
  options: { olderThan: Date; cutoff: Date; afterProfile: number; limit: number },
): Promise<Array<{ profile_id: number; unread: number; batch: number }>> {
  return rowsOf(
    db,
    sql`select m."profile_id", count(*)::int as "unread", max(x."id") as "batch"
        from "conversation_members" m
        join "messages" x on x."conversation_id" = m."conversation_id" and x."sender_id" = m."other_id"
          and x."seq" > greatest(m."read_seq", m."deleted_seq")
        where m."profile_id" > ${options.afterProfile}
          and x."created_at" < ${options.olderThan.toISOString()}::timestamptz
          and x."created_at" > ${options.cutoff.toISOString()}::timestamptz
        group by m."profile_id" order by m."profile_id" limit ${options.limit}`,
  );
}
