import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../platform/db/index.ts";

/** A live claim of a conversation: who holds it and until when. */
export interface ClaimRow {
  staff_id: number;
  expires_at: Date | string;
}

/**
 * The live claim of the conversation in `conversationId` as a JSON column (null when nobody holds it
 * or the lease ran out), lent to the chat's queue.
 */
export function claimColumn(conversationId: SQL): SQL {
  return sql`(select json_build_object('staff_id', k."staff_id", 'expires_at', k."expires_at") from "operator_claims" k
              where k."conversation_id" = ${conversationId} and k."expires_at" > now())`;
}

/** The live claim of conversation `id`, if any; `staffId`: that operator's only; `expiredToo`: live or not. */
export async function findClaim(
  db: DbOrTx,
  id: number,
  options: { staffId?: number; expiredToo?: boolean },
): Promise<ClaimRow | null> {
  const [row] = await rowsOf<ClaimRow>(
    db,
    sql`select "staff_id", "expires_at" from "operator_claims" where "conversation_id" = ${id}
          ${options.staffId === undefined ? sql`` : sql`and "staff_id" = ${options.staffId}`}
          ${options.expiredToo ? sql`` : sql`and "expires_at" > now()`}`,
  );
  return row ?? null;
}

/**
 * Claims conversation `id` for `staffId` for `leaseSeconds`, in one statement: a new row, or the row of
 * an expired lease taken over, or the claimer's own lease renewed. Two operators at once: the primary
 * key makes the second insert wait for the first, then its `where` sees the first one's live lease and
 * changes nothing. Answers the lease's end when `staffId` holds it now.
 */
export async function takeClaim(tx: DbOrTx, id: number, staffId: number, leaseSeconds: number): Promise<Date | null> {
  const [row] = await rowsOf<{ expires_at: Date | string }>(
    tx,
    sql`insert into "operator_claims" as k ("conversation_id", "staff_id", "claimed_at", "expires_at")
        values (${id}, ${staffId}, now(), now() + make_interval(secs => ${leaseSeconds}))
        on conflict ("conversation_id") do update
          set "staff_id" = excluded."staff_id", "claimed_at" = case when k."staff_id" = excluded."staff_id" and k."expires_at" > now()
                then k."claimed_at" else excluded."claimed_at" end, "expires_at" = excluded."expires_at"
          where k."expires_at" <= now() or k."staff_id" = excluded."staff_id"
        returning k."expires_at"`,
  );
  return row ? new Date(row.expires_at) : null;
}

/** Renews `staffId`'s live lease of conversation `id`; answers its new end, or null when they do not hold it. */
export async function renewClaim(tx: DbOrTx, id: number, staffId: number, leaseSeconds: number): Promise<Date | null> {
  const [row] = await rowsOf<{ expires_at: Date | string }>(
    tx,
    sql`update "operator_claims" set "expires_at" = now() + make_interval(secs => ${leaseSeconds})
        where "conversation_id" = ${id} and "staff_id" = ${staffId} and "expires_at" > now()
        returning "expires_at"`,
  );
  return row ? new Date(row.expires_at) : null;
}

/** Whether `staffId` holds a live lease of conversation `id`; `lock` keeps the row until the transaction ends. */
export async function holdsClaim(db: DbOrTx, id: number, staffId: number, lock = false): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    db,
    sql`select 1 as "one" from "operator_claims" where "conversation_id" = ${id} and "staff_id" = ${staffId}
          and "expires_at" > now() ${lock ? sql`for update` : sql``}`,
  );
  return rows.length > 0;
}

/** Ends `staffId`'s claim of conversation `id` (live or not); answers whether there was one. */
export async function dropClaim(tx: DbOrTx, id: number, staffId: number): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    tx,
    sql`delete from "operator_claims" where "conversation_id" = ${id} and "staff_id" = ${staffId} returning 1 as "one"`,
  );
  return rows.length > 0;
}

export interface NoteRow {
  text: string;
  staff_id: number;
  updated_at: Date | string;
}

export async function findNote(db: DbOrTx, personaId: number, memberId: number): Promise<NoteRow | undefined> {
  const [row] = await rowsOf<NoteRow>(
    db,
    sql`select "text", "staff_id", "updated_at" from "operator_notes" where "persona_id" = ${personaId} and "member_id" = ${memberId}`,
  );
  return row;
}

/** Writes the pair's note (an empty text deletes it); answers what it was before. */
export async function writeNote(
  tx: DbOrTx,
  pair: { personaId: number; memberId: number },
  text: string,
  staffId: number,
): Promise<NoteRow | undefined> {
  const before = await findNote(tx, pair.personaId, pair.memberId);
  if (!text) {
    await tx.execute(sql`delete from "operator_notes" where "persona_id" = ${pair.personaId} and "member_id" = ${pair.memberId}`);
  } else {
    await tx.execute(
      sql`insert into "operator_notes" ("persona_id", "member_id", "text", "staff_id", "updated_at")
          values (${pair.personaId}, ${pair.memberId}, ${text}, ${staffId}, now())
          on conflict ("persona_id", "member_id") do update set "text" = excluded."text", "staff_id" = excluded."staff_id", "updated_at" = now()`,
    );
  }
  return before;
}

/** One answer for the figures. */
export async function recordAnswer(
  tx: DbOrTx,
  answer: { conversationId: number; messageId: number; personaId: number; staffId: number; waitedSince: Date | null },
): Promise<void> {
  await tx.execute(
    sql`insert into "operator_answers" ("conversation_id", "message_id", "persona_id", "staff_id", "waited_since")
        values (${answer.conversationId}, ${answer.messageId}, ${answer.personaId}, ${answer.staffId},
                ${answer.waitedSince?.toISOString() ?? null}::timestamptz)`,
  );
}

export interface WaitFigures {
  answers: number;
  median_seconds: number | null;
  p90_seconds: number | null;
}

const waitFigures = sql`count(*)::int as "answers",
  percentile_cont(0.5) within group (order by extract(epoch from "answered_at" - "waited_since")) as "median_seconds",
  percentile_cont(0.9) within group (order by extract(epoch from "answered_at" - "waited_since")) as "p90_seconds"`;

/**
 * Time to first answer (from the member's first unanswered message to the operator's answer) over the
 * answers since `since`: in all, per operator, and per hour (the hour the answer was sent, UTC).
 */
export async function answerFigures(db: DbOrTx, since: Date) {
  const where = sql`where "waited_since" is not null and "answered_at" >= ${since.toISOString()}::timestamptz`;
  const [all] = await rowsOf<WaitFigures>(db, sql`select ${waitFigures} from "operator_answers" ${where}`);
  const perOperator = await rowsOf<WaitFigures & { staff_id: number }>(
    db,
    sql`select "staff_id", ${waitFigures} from "operator_answers" ${where} group by "staff_id" order by "staff_id"`,
  );
  const perHour = await rowsOf<WaitFigures & { hour: Date | string }>(
    db,
    sql`select date_trunc('hour', "answered_at" at time zone 'UTC') at time zone 'UTC' as "hour", ${waitFigures}
        from "operator_answers" ${where} group by 1 order by 1`,
  );
  return { all, perOperator, perHour };
}
