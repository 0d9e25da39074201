import { createHash } from "node:crypto";
import { type Placeholder, type SQL, sql } from "drizzle-orm";
import { type CompiledFragment, compileFragment, fragmentText } from "../../platform/db/compile.ts";
import type { Db } from "../../platform/db/index.ts";
import type { LentDebit } from "../credits/index.ts";
import { type CheckedWrite, checkAndWriteStatement, lockStatement, otherSide, pairConversation, rowsOf } from "./queries.ts";

/** What the function answers: why it stopped, or what the checks found and the write wrote. */
export type SendFunctionAnswer =
  | { outcome: "session" | "not_found" | "no_conversation" }
  | ({ outcome: "done"; other: number; user_id: number | null; conversation_id: number } & CheckedWrite);

/** The pieces of other modules a send is made of (the same ones the transaction path uses). */
export interface SendFunctionParts {
  /** The credit lock of a user (CreditService.lockExpression). */
  creditLock(userId: Placeholder): SQL;
  /** Whether a user is premium (CreditService.memberColumns's `paid`). */
  paid(userId: SQL): SQL;
  /** The user id of a profile (ProfileService.userIdOf). */
  userIdOf(profileId: SQL): SQL;
  /** The condition "the session of this key still stands" (AccountService.sessionStands). */
  sessionStands(key: Placeholder): SQL;
  /** May `me` write to `other` (the visibility policy's condition). */
  visible(other: SQL, me: Placeholder): SQL;
  /** The keyed debit, given the checks as its condition (CreditService.keyedDebit). */
  debit(input: {
    userId: Placeholder;
    cost: Placeholder;
    positive: boolean;
    reason: Placeholder;
    key: Placeholder;
    when: SQL;
  }): LentDebit;
  /** The events that announce the message (MemberEvents.recordLentExpressions). */
  events(entries: { userId: SQL; event: SQL }[], when: SQL): { ctes: SQL; numbers: SQL };
  /** The condition "the message was written", for the events. */
  written: SQL;
}

/** The arguments of one call, in the function's order. */
export interface SendFunctionCall {
  me: number;
  user: number;
  toProfile: number | null;
  conversation: number | null;
  checkSession: boolean;
  sessionKey: string | null;
  client: string;
  kind: string;
  text: string;
  gift: string | null;
  gif: string | null;
  cost: number;
  reason: string;
  key: string;
  freeLimit: number;
  /** The events as the recipient and the sender will see them, but for the message's id, time and conversation (set by the function). */
  eventOther: string;
  eventMe: string;
}

const ARGUMENTS: [keyof SendFunctionCall, string][] = [
  ["me", "int"],
  ["user", "int"],
  ["toProfile", "int"],
  ["conversation", "int"],
  ["checkSession", "boolean"],
  ["sessionKey", "text"],
  ["client", "uuid"],
  ["kind", "text"],
  ["text", "text"],
  ["gift", "text"],
  ["gif", "jsonb"],
  ["cost", "int"],
  ["reason", "text"],
  ["key", "text"],
  ["freeLimit", "int"],
  ["eventOther", "jsonb"],
  ["eventMe", "jsonb"],
];

/**
 * A send as one server-side function: the statements of the transaction path (decision 020's locks'
 * statement, then the checks and the write), assembled from the same builders and the same lent
 * conditions of the credits, profiles, accounts, visibility and member-events modules, compiled once
 * and run by PostgreSQL in one round trip instead of four (`begin`, the locks, the write, `commit`).
 * The function runs as one statement, so one transaction: its locks last until it ends, and each of
 * its statements takes a fresh snapshot (PL/pgSQL in READ COMMITTED), so the checks see every change
 * committed before the locks were granted, as in the transaction path.
 *
 * Its name carries a hash of its text, so nodes of different versions (a rolling deploy) each create
 * and call their own; `create` is idempotent. It answers why it stopped (an ended session, a
 * conversation not the sender's, no conversation yet: the caller then takes the transaction path,
 * which makes it), or the checks and the write as checkAndWritePaidMessage does. The events it writes
 * are the caller's JSON with the message's id, time and conversation set in SQL.
 */
export class SendFunction {
  readonly name: string;
  readonly definition: string;
  private created: Promise<void> | undefined;
  /** The call's statement, compiled once (its arguments bound per call). */
  private readonly callStatement: CompiledFragment<keyof SendFunctionCall>;

  constructor(db: Db, parts: SendFunctionParts, positive: boolean) {
    const arg = (name: keyof SendFunctionCall) => `p_${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
    const names: Record<string, string> = Object.fromEntries(ARGUMENTS.map(([name]) => [name, arg(name)]));
    // The locks' record's fields, for the write.
    Object.assign(names, {
      other: "send_locks.other",
      otherUser: "send_locks.user_id",
      conversationId: "send_locks.conversation_id",
      paid: "send_locks.paid",
      id: "send_locks.next_id",
    });
    type Name = keyof SendFunctionCall | "other" | "otherUser" | "conversationId" | "paid" | "id";
    const locks = compileFragment<Name>(db, (p) =>
      lockStatement(
        p("me"),
        sql`(case when ${p("toProfile")}::int is not null then ${p("toProfile")}::int else ${otherSide(p("me"), p("conversation"))} end)`,
        parts.creditLock(p("user")),
        (other) =>
          sql`(not ${p("checkSession")}::boolean or ${parts.sessionStands(p("sessionKey"))}) as "standing",
              ${parts.paid(sql`${p("user")}::int`)} as "paid", ${parts.userIdOf(other)} as "user_id",
              ${pairConversation(p("me"), other)} as "conversation_id", nextval('"messages_id_seq"')::int as "next_id"`,
        sql`into send_locks`,
      ),
    );
    // The events as the caller built them, with what only the function knows.
    const completed = (event: SQL) =>
      sql`jsonb_set(jsonb_set(jsonb_set(jsonb_set(${event}::jsonb,
            '{conversation_id}', to_jsonb(send_locks.conversation_id)),
            '{message,conversation_id}', to_jsonb(send_locks.conversation_id)),
            '{message,id}', to_jsonb(send_locks.next_id)),
            '{message,created_at}', to_jsonb(to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))`;
    const write = compileFragment<Name>(db, (p) =>
      checkAndWriteStatement(
        {
          row: {
            id: p("id"),
            conversation_id: p("conversationId"),
            sender_id: p("me"),
            client_id: p("client"),
            kind: p("kind"),
            text: p("text"),
            gift_id: p("gift"),
            gif: p("gif"),
            photo_key: null,
            photo_width: null,
            photo_height: null,
          },
          other: p("other"),
          ok: parts.visible(sql`${p("other")}::int`, p("me")),
          paid: p("paid"),
          freeLimit: p("freeLimit"),
          debit: (when) =>
            parts.debit({ userId: p("user"), cost: p("cost"), positive, reason: p("reason"), key: p("key"), when }),
          events: parts.events(
            [
              { userId: sql`${p("otherUser")}`, event: completed(sql`${p("eventOther")}`) },
              { userId: sql`${p("user")}`, event: completed(sql`${p("eventMe")}`) },
            ],
            parts.written,
          ),
        },
        sql`into send_written`,
      ),
    );
    const body = `declare
  send_locks record;
  send_written record;
begin
  ${fragmentText(locks, names)};
  if not send_locks.standing then return json_build_object('outcome', 'session'); end if;
  if send_locks.other is null then return json_build_object('outcome', 'not_found'); end if;
  if send_locks.conversation_id is null then return json_build_object('outcome', 'no_conversation'); end if;
  ${fragmentText(write, names)};
  return json_build_object('outcome', 'done', 'other', send_locks.other, 'user_id', send_locks.user_id,
    'conversation_id', send_locks.conversation_id, 'again', send_written.again, 'ok', send_written.ok,
    'side', send_written.side, 'within_limit', send_written.within_limit, 'message', send_written.message,
    'earlier', send_written.earlier, 'balance', send_written.balance, 'numbers', send_written.numbers);
end`;
    const signature = ARGUMENTS.map(([name, type]) => `${arg(name)} ${type}`).join(", ");
    this.name = `chat_send_${createHash("sha1").update(signature).update(body).digest("hex").slice(0, 16)}`;
    this.definition = `create or replace function "${this.name}"(${signature}) returns json language plpgsql volatile as $send$\n${body}\n$send$`;
    this.callStatement = compileFragment<keyof SendFunctionCall>(db, (p) => {
      const values = sql.join(
        ARGUMENTS.map(([name, type]) => sql`${p(name)}::${sql.raw(type)}`),
        sql`, `,
      );
      return sql`select ${sql.identifier(this.name)}(${values}) as "answer"`;
    });
  }

  private async exists(db: Db): Promise<boolean> {
    const [found] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as "n" from pg_proc where proname = ${this.name}`);
    return (found?.n ?? 0) > 0;
  }

  /** Makes the function once per process (another node may have made it already: then nothing changes). */
  ensure(db: Db): Promise<void> {
    this.created ??= (async () => {
      if (await this.exists(db)) return;
      try {
        await db.execute(sql.raw(this.definition));
      } catch (error) {
        // Two nodes making it at once: one of them may fail, and the function is there all the same.
        if (!(await this.exists(db))) throw error;
      }
    })().catch((error: unknown) => {
      this.created = undefined;
      throw error;
    });
    return this.created;
  }

  /** Runs one send (a statement of its own: it is its own transaction); `ensure` first. */
  async call(db: Db, call: SendFunctionCall): Promise<SendFunctionAnswer> {
    const [row] = await rowsOf<{ answer: SendFunctionAnswer }>(db, this.callStatement.bind(call));
    if (!row) throw new Error("a function call answers one row");
    return row.answer;
  }
}
