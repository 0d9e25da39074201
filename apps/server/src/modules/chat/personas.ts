import type { ChatMessage, MessageKind } from "@app/contract";
import { type SQL, sql } from "drizzle-orm";
import { type Db, type DbOrTx, rowsOf } from "../../platform/db/index.ts";
import { presentMessage } from "./presenting.ts";
import type { CardOf, MessageRow } from "./queries.ts";
import type { RetentionWindow } from "./retention.ts";

/** The two sides of a conversation with a fictional profile: the persona and the member. */
export interface PersonaSides {
  conversationId: number;
  personaId: number;
  personaUserId: number;
  memberId: number;
  memberUserId: number;
  /** The member's first unanswered message's time; null when nobody waits. */
  waitingSince: Date | null;
}

/** A profile's card columns as the operators' queue shows them. */
export interface QueueCard {
  id: number;
  name: string;
  age: number;
  country: string;
  city: string | null;
}

/** One waiting conversation of the operators' queue. */
export interface WaitingRow {
  conversation_id: number;
  waiting_since: Date;
  persona: QueueCard;
  member: QueueCard;
  last_kind: MessageKind;
  last_text: string;
  /** The lent column of the caller (the operators' claim of this conversation), as it answered it. */
  lent: unknown;
}

/** A fictional profile's earlier text, in any of its conversations. */
export interface PersonaLine {
  conversation_id: number;
  kind: MessageKind;
  text: string;
  created_at: string;
}

/** Which side of conversation `c` is the fictional one (a lent from-item `sides` with persona_id, member_id). */
const SIDES = sql`cross join lateral (
    select case when "profiles_fictional"(c."profile_a") then c."profile_a" else c."profile_b" end as "persona_id",
           case when "profiles_fictional"(c."profile_a") then c."profile_b" else c."profile_a" end as "member_id"
  ) as "sides"`;

const cardJson = (alias: string) =>
  sql`json_build_object('id', ${sql.identifier(alias)}."id", 'name', ${sql.identifier(alias)}."name", 'age', ${sql.identifier(alias)}."age",
        'country', ${sql.identifier(alias)}."country", 'city', ${sql.identifier(alias)}."city")`;

/**
 * The chat's side of the operators' inbox (issue #27): conversations with a fictional profile waiting
 * for an answer (conversations.waiting_since, kept by chat_send_v2), their history as the fictional
 * profile sees it, and what that profile said before. Operators write through ChatSending.sendAsPersona
 * and type through ChatTyping with the fictional member's user id; nothing here writes.
 */
export class ChatPersonas {
  constructor(
    private readonly db: Db,
    private readonly window: RetentionWindow,
    private readonly card: CardOf,
  ) {}

  /** How many conversations wait for an answer (the partial index conversations_waiting alone). */
  async waitingCount(): Promise<number> {
    const [row] = await rowsOf<{ n: number }>(
      this.db,
      sql`select count(*)::int as "n" from "conversations" where "waiting_since" is not null`,
    );
    return Number(row?.n ?? 0);
  }

  /**
   * The waiting conversations, oldest wait first (the index conversations_waiting gives the order, so
   * the page stops after `limit` rows however many wait), after `after` (a previous page's last one),
   * each with the caller's `lent` column on the conversation's id (the operators' claim). Members who
   * may no longer be written to (hidden, blocked either way) are left out.
   */
  async waiting(options: {
    limit: number;
    after?: { waitingSince: Date; conversationId: number } | undefined;
    lent: (conversationId: SQL) => SQL;
  }): Promise<WaitingRow[]> {
    const { after } = options;
    const rows = await rowsOf<Omit<WaitingRow, "waiting_since"> & { waiting_since: Date | string }>(
      this.db,
      sql`select c."id" as "conversation_id", c."waiting_since", ${cardJson("persona")} as "persona", ${cardJson("member")} as "member",
            last."kind" as "last_kind", last."text" as "last_text", ${options.lent(sql`c."id"`)} as "lent"
          from "conversations" c
          ${SIDES}
          ${this.card(sql`"sides"."persona_id"`, "persona")}
          ${this.card(sql`"sides"."member_id"`, "member")}
          cross join lateral (
            select x."kind", left(x."text", 200) as "text" from "messages" x
            where x."conversation_id" = c."id" order by x."seq" desc limit 1
          ) as last
          where c."waiting_since" is not null
            ${after ? sql`and (c."waiting_since", c."id") > (${after.waitingSince.toISOString()}::timestamptz, ${after.conversationId}::int)` : sql``}
            and "visibility_may_contact"("sides"."persona_id", "sides"."member_id")
          order by c."waiting_since", c."id"
          limit ${options.limit}`,
    );
    return rows.map((row) => ({
      ...row,
      conversation_id: Number(row.conversation_id),
      waiting_since: new Date(row.waiting_since),
    }));
  }

  /** The oldest wait now (null: nobody waits). */
  async oldestWait(): Promise<Date | null> {
    const [row] = await rowsOf<{ at: Date | string | null }>(
      this.db,
      sql`select min("waiting_since") as "at" from "conversations"`,
    );
    return row?.at ? new Date(row.at) : null;
  }

  /** The card columns of these profiles (any profile: the inbox shows both sides). */
  async cards(ids: readonly number[]): Promise<QueueCard[]> {
    const rows = await rowsOf<QueueCard>(
      this.db,
      sql`select card."id", card."name", card."age", card."country", card."city"
          from unnest(${sql.param([...ids])}::int[]) as "ids"("id") ${this.card(sql`"ids"."id"`, "card")}`,
    );
    return rows.map((row) => ({ ...row, id: Number(row.id), age: Number(row.age) }));
  }

  /** The members (user ids) of these profiles, in their order (null for an unknown one). */
  async usersOf(db: DbOrTx, ids: readonly number[]): Promise<(number | null)[]> {
    const rows = await rowsOf<{ user_id: number | null }>(
      db,
      sql`select "profiles_user_of"("ids"."id") as "user_id" from unnest(${sql.param([...ids])}::int[]) with ordinality as "ids"("id", "n") order by "ids"."n"`,
    );
    return rows.map((row) => (row.user_id == null ? null : Number(row.user_id)));
  }

  /** A fictional profile's ids (its user's and its own), undefined for any other profile. */
  async persona(db: DbOrTx, profileId: number): Promise<{ userId: number; profileId: number } | undefined> {
    const [row] = await rowsOf<{ user_id: number | null }>(
      db,
      sql`select case when "profiles_fictional"(${profileId}::int) then "profiles_user_of"(${profileId}::int) end as "user_id"`,
    );
    return row?.user_id == null ? undefined : { userId: Number(row.user_id), profileId };
  }

  /** The sides of conversation `id` when it is one with a fictional profile; undefined otherwise. */
  async sidesOf(db: DbOrTx, id: number): Promise<PersonaSides | undefined> {
    const [row] = await rowsOf<{
      persona_id: number;
      member_id: number;
      persona_user: number;
      member_user: number;
      waiting_since: Date | string | null;
    }>(
      db,
      sql`select "sides"."persona_id", "sides"."member_id", "profiles_user_of"("sides"."persona_id") as "persona_user",
                 "profiles_user_of"("sides"."member_id") as "member_user", c."waiting_since"
          from "conversations" c ${SIDES}
          where c."id" = ${id} and c."fictional" and "profiles_fictional"("sides"."persona_id")`,
    );
    if (!row) return undefined;
    return {
      conversationId: id,
      personaId: Number(row.persona_id),
      personaUserId: Number(row.persona_user),
      memberId: Number(row.member_id),
      memberUserId: Number(row.member_user),
      waitingSince: row.waiting_since === null ? null : new Date(row.waiting_since),
    };
  }

  /** The conversation's latest messages within the retention window, oldest first, as the fictional profile sees them. */
  async history(sides: PersonaSides, limit: number): Promise<ChatMessage[]> {
    const rows = await rowsOf<MessageRow>(
      this.db,
      sql`select "id", "conversation_id", "seq", "sender_id", "client_id"::text as "client_id", "kind", "text", "gift_id", "gif",
                 "photo_key", "photo_width", "photo_height", "created_at"
          from "messages" where "conversation_id" = ${sides.conversationId}
            and "created_at" > ${this.window.cutoff().toISOString()}::timestamptz
          order by "seq" desc limit ${limit}`,
    );
    return rows.reverse().map((row) => presentMessage(row, sides.personaId));
  }

  /** The file of photo message `messageId` of this conversation within the retention window, if it is one. */
  async photoKey(sides: PersonaSides, messageId: number): Promise<string | undefined> {
    const [row] = await rowsOf<{ photo_key: string }>(
      this.db,
      sql`select "photo_key" from "messages" where "id" = ${messageId} and "conversation_id" = ${sides.conversationId}
            and "kind" = 'photo' and "created_at" > ${this.window.cutoff().toISOString()}::timestamptz`,
    );
    return row?.photo_key;
  }

  /**
   * What the fictional profile wrote before in its other conversations (the persona's earlier answers
   * to anyone, newest first), so that it stays one person: texts and gifts' texts within the window.
   */
  async earlierLines(sides: PersonaSides, limit: number): Promise<PersonaLine[]> {
    const rows = await rowsOf<PersonaLine & { created_at: Date | string }>(
      this.db,
      sql`select "conversation_id", "kind", "text", "created_at" from "messages"
          where "sender_id" = ${sides.personaId} and "conversation_id" <> ${sides.conversationId} and "text" <> ''
            and "created_at" > ${this.window.cutoff().toISOString()}::timestamptz
          order by "id" desc limit ${limit}`,
    );
    return rows.map((row) => ({
      ...row,
      conversation_id: Number(row.conversation_id),
      created_at: new Date(row.created_at).toISOString(),
    }));
  }
}
