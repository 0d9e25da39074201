import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../platform/db/index.ts";
import { profileVisits, visitorsSeen } from "./schema.ts";

/** How often a pair's visit time is renewed at most: a reload or a second look writes nothing. */
export const RENEW_AFTER_MS = 3_600_000;

/**
 * Records `visitorId`'s visit of `visitedId` at `now`: one statement, a primary-key probe; the row's time
 * is renewed only when it is older than RENEW_AFTER_MS (otherwise nothing is written).
 */
export async function upsertVisit(db: DbOrTx, visitorId: number, visitedId: number, now: Date): Promise<void> {
  await db
    .insert(profileVisits)
    .values({ visitorId, visitedId, visitedAt: now })
    .onConflictDoUpdate({
      target: [profileVisits.visitedId, profileVisits.visitorId],
      set: { visitedAt: now },
      setWhere: sql`${profileVisits.visitedAt} < ${new Date(now.getTime() - RENEW_AFTER_MS).toISOString()}::timestamptz`,
    });
}

/** Deletes the visits of a pair both ways (a block). */
export async function deletePairVisits(db: DbOrTx, a: number, b: number): Promise<void> {
  await db.execute(
    sql`delete from ${profileVisits} where ("visited_id" = ${a} and "visitor_id" = ${b}) or ("visited_id" = ${b} and "visitor_id" = ${a})`,
  );
}

/** Deletes visits older than `before`; returns how many. */
export async function deleteVisitsBefore(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(profileVisits)
    .where(sql`${profileVisits.visitedAt} < ${before.toISOString()}::timestamptz`)
    .returning({ id: profileVisits.visitorId });
  return rows.length;
}

export type EachVisible = (profileId: SQL, alias: string) => { join: SQL; where: SQL };

/** How many visible visitors `me` has since `since`. */
export function visitorCountStatement(me: number, since: Date, visible: EachVisible): SQL {
  const check = visible(sql.raw(`"v"."visitor_id"`), "v_visible");
  return sql`select count(*)::int as "n" from ${profileVisits} as "v" ${check.join}
    where "v"."visited_id" = ${me} and "v"."visited_at" >= ${since.toISOString()}::timestamptz and ${check.where}`;
}

/** One page of `me`'s visible visitors since `since`, newest first, with their card columns. */
export function visitorPageStatement(
  me: number,
  since: Date,
  visible: EachVisible,
  card: (profileId: SQL, alias: string) => SQL,
  offset: number,
  limit: number,
): SQL {
  const check = visible(sql.raw(`"v"."visitor_id"`), "v_visible");
  return sql`select "card"."id", "card"."name", "card"."age", "card"."country", "card"."city", "card"."fictional",
      "card"."latitude", "card"."longitude", "page"."visited_at"
    from (select "v"."visitor_id", "v"."visited_at" from ${profileVisits} as "v" ${check.join}
      where "v"."visited_id" = ${me} and "v"."visited_at" >= ${since.toISOString()}::timestamptz and ${check.where}
      order by "v"."visited_at" desc, "v"."visitor_id" limit ${limit} offset ${offset}) as "page"
    ${card(sql`"page"."visitor_id"`, "card")}
    order by "page"."visited_at" desc, "page"."visitor_id"`;
}

/** The member's own visits of others (the data export): whom, and when last. */
export async function visitsBy(db: DbOrTx, visitorId: number): Promise<{ visitedId: number; visitedAt: Date }[]> {
  return db
    .select({ visitedId: profileVisits.visitedId, visitedAt: profileVisits.visitedAt })
    .from(profileVisits)
    .where(sql`${profileVisits.visitorId} = ${visitorId}`);
}

/** The member opened /visitors at `now`: visits up to it are no longer new. */
export async function markVisitorsSeen(db: DbOrTx, profileId: number, now: Date): Promise<void> {
  await db
    .insert(visitorsSeen)
    .values({ profileId, seenAt: now })
    .onConflictDoUpdate({ target: visitorsSeen.profileId, set: { seenAt: now } });
}

/** When the member last opened /visitors (null: never). */
export async function visitorsSeenAt(db: DbOrTx, profileId: number): Promise<Date | null> {
  const [row] = await db
    .select({ seenAt: visitorsSeen.seenAt })
    .from(visitorsSeen)
    .where(sql`${visitorsSeen.profileId} = ${profileId}`);
  return row ? new Date(row.seenAt) : null;
}
