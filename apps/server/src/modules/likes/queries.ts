import { asc, eq, or, type SQL, sql } from "drizzle-orm";
import { type Db, type DbOrTx, rowsOf } from "../../platform/db/index.ts";
import type { ListedProfiles, TeaserRow } from "../profiles/service.ts";
import { autoLikes, likes, swipeDays, swipes } from "./schema.ts";

/**
 * Serialises everything that changes the likes between two profiles (like, unlike, block) for the rest
 * of the transaction: the second of two simultaneous likes then sees the first and makes the match,
 * exactly once (decision 019). One 64-bit key per unordered pair (the single-key space of advisory locks,
 * apart from the two-key locks elsewhere; profile ids are below 2^31, so keys are unique and ≥ 2^31).
 */
export async function lockPair(tx: DbOrTx, a: number, b: number): Promise<void> {
  const key = BigInt(Math.min(a, b)) * 2_147_483_648n + BigInt(Math.max(a, b));
  await tx.execute(sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`);
}

/** Both directions between `me` and `other`: whether I like them, they like me, and whether their like to me is new. */
export async function likesBetween(
  db: DbOrTx,
  me: number,
  other: number,
): Promise<{ mine: boolean; theirs: boolean; theirsNew: boolean }> {
  const [row] = await rowsOf<{ mine: boolean; theirs: boolean; theirs_new: boolean }>(
    db,
    sql`select exists (select 1 from ${likes} where ${likes.likerId} = ${me} and ${likes.likedId} = ${other}) as mine,
        exists (select 1 from ${likes} where ${likes.likerId} = ${other} and ${likes.likedId} = ${me}) as theirs,
        exists (select 1 from ${likes} where ${likes.likerId} = ${other} and ${likes.likedId} = ${me} and not ${likes.seen}) as theirs_new`,
  );
  return { mine: !!row?.mine, theirs: !!row?.theirs, theirsNew: !!row?.theirs_new };
}

/**
 * Inserts the like `liker` → `liked` when `allowed` (the visibility policy's condition on the liked
 * profile) holds; answers the liked member's user id, or null when nothing was inserted (already there,
 * or not allowed).
 */
export async function insertLike(
  tx: DbOrTx,
  liker: number,
  liked: number,
  allowed: SQL,
  userIdOf: (profileId: SQL) => SQL,
): Promise<{ likedUserId: number } | null> {
  const [row] = await rowsOf<{ liked_user_id: number }>(
    tx,
    sql`insert into ${likes} (liker_id, liked_id) select ${liker}::int, ${liked}::int where ${allowed}
        on conflict do nothing returning ${userIdOf(sql`${likes.likedId}`)} as liked_user_id`,
  );
  return row ? { likedUserId: Number(row.liked_user_id) } : null;
}

/** Marks both likes of the pair as a match; true when `other` had liked `me` (the match is made now). */
export async function markMatch(tx: DbOrTx, me: number, other: number): Promise<boolean> {
  const rows = await rowsOf<{ liker_id: number }>(
    tx,
    sql`update ${likes} set matched_at = now()
        where ((${likes.likerId} = ${me} and ${likes.likedId} = ${other}) or (${likes.likerId} = ${other} and ${likes.likedId} = ${me}))
          and exists (select 1 from ${likes} as "back" where "back"."liker_id" = ${other} and "back"."liked_id" = ${me})
        returning ${likes.likerId}`,
  );
  return rows.length === 2;
}

/** Deletes my like of `other` and ends a match; answers whether it was there, whether it was new to them, and their user id. */
export async function deleteLike(
  tx: DbOrTx,
  me: number,
  other: number,
  userIdOf: (profileId: SQL) => SQL,
): Promise<{ seen: boolean; matched: boolean; likedUserId: number } | null> {
  const [row] = await rowsOf<{ seen: boolean; matched: boolean; liked_user_id: number }>(
    tx,
    sql`delete from ${likes} where ${likes.likerId} = ${me} and ${likes.likedId} = ${other}
        returning ${likes.seen} as seen, ${likes.matchedAt} is not null as matched, ${userIdOf(sql`${likes.likedId}`)} as liked_user_id`,
  );
  if (!row) return null;
  if (row.matched) {
    await tx.execute(sql`update ${likes} set matched_at = null where ${likes.likerId} = ${other} and ${likes.likedId} = ${me}`);
  }
  return { seen: row.seen, matched: row.matched, likedUserId: Number(row.liked_user_id) };
}

/** Deletes the likes both ways between two profiles (a block); answers who liked whom and whether it was new. */
export async function deletePairLikes(
  tx: DbOrTx,
  a: number,
  b: number,
): Promise<{ likerId: number; likedId: number; seen: boolean }[]> {
  const rows = await rowsOf<{ liker_id: number; liked_id: number; seen: boolean }>(
    tx,
    sql`delete from ${likes}
        where (${likes.likerId} = ${a} and ${likes.likedId} = ${b}) or (${likes.likerId} = ${b} and ${likes.likedId} = ${a})
        returning ${likes.likerId} as liker_id, ${likes.likedId} as liked_id, ${likes.seen} as seen`,
  );
  return rows.map((row) => ({ likerId: row.liker_id, likedId: row.liked_id, seen: row.seen }));
}

/**
 * Opening `liker`'s profile clears the new flag of their like to `me`; with the state between us, in
 * one statement. `cleared`: the flag was set and is not any more.
 */
export async function clearNewAndRead(
  tx: DbOrTx,
  me: number,
  liker: number,
  userIdOf: (profileId: SQL) => SQL,
): Promise<{ mine: boolean; theirs: boolean; cleared: boolean; myUserId: number }> {
  const [row] = await rowsOf<{ mine: boolean; theirs: boolean; cleared: boolean; my_user_id: number }>(
    tx,
    sql`with cleared as (
          update ${likes} set seen = true where ${likes.likerId} = ${liker} and ${likes.likedId} = ${me} and not ${likes.seen} returning 1
        )
        select exists (select 1 from ${likes} where ${likes.likerId} = ${me} and ${likes.likedId} = ${liker}) as mine,
          exists (select 1 from ${likes} where ${likes.likerId} = ${liker} and ${likes.likedId} = ${me}) as theirs,
          exists (select 1 from cleared) as cleared, ${userIdOf(sql`${me}::int`)} as my_user_id`,
  );
  return { mine: !!row?.mine, theirs: !!row?.theirs, cleared: !!row?.cleared, myUserId: Number(row?.my_user_id) };
}

export interface LikeCountsRow {
  received: number;
  sent: number;
  matches: number;
  new: number;
}

/**
 * How a list checks the other profile of each like: the visibility policy's `eachVisible` (a look-up per
 * row through the primary key, never a hash of every profile), under an alias of the caller's choosing.
 */
export type EachVisible = (profileId: SQL, alias: string) => { join: SQL; where: SQL };

/**
 * How a count checks the other profile of each like: the visibility policy's `visibleAmong` (the few
 * hidden profiles hashed once; a count reads every like, so a look-up per row would cost the most).
 */
export type VisibleAmong = (profileId: SQL) => SQL;

/**
 * The overview's counts in one statement, counting only profiles the viewer may see: received (one-sided
 * likes to me), matches, new (not yet opened, matches included) and sent (my one-sided likes). Index-only
 * scans of `likes_received` and `likes_sent` against the hashed hidden profiles (decision 019).
 */
export function likeCountsStatement(me: number, visible: VisibleAmong): SQL {
  return sql`select count(*) filter (where "r"."matched_at" is null)::int as received,
      count(*) filter (where "r"."matched_at" is not null)::int as matches,
      count(*) filter (where not "r"."seen")::int as new,
      (select count(*)::int from ${likes} as "s"
        where "s"."liker_id" = ${me} and "s"."matched_at" is null and ${visible(sql`"s"."liked_id"`)}) as sent
    from ${likes} as "r" where "r"."liked_id" = ${me} and ${visible(sql`"r"."liker_id"`)}`;
}

/** The new-likes badge: likes to `me` not yet opened, from profiles the viewer may see. */
export function newLikesStatement(me: number, visible: VisibleAmong): SQL {
  return sql`select count(*)::int as n from ${likes} as "r"
    where "r"."liked_id" = ${me} and not "r"."seen" and ${visible(sql`"r"."liker_id"`)}`;
}

export interface LikePageRow extends TeaserRow {
  liked_at: Date | string;
  seen: boolean;
}

/**
 * One page of a tab, new likes first, then the latest: the likes read in the order of an index
 * (`likes_received`, `likes_matches`, `likes_sent`; `nulls last` as the indexes have it), each checked by
 * `visible`, stopping after the page; then the page's card columns (`card`, the profiles module's
 * from-item), one primary-key look-up per card.
 */
export function likePageStatement(
  type: "received" | "sent" | "matches",
  me: number,
  visible: EachVisible,
  card: (profileId: SQL, alias: string) => SQL,
  offset: number,
  limit: number,
): SQL {
  const other = type === "sent" ? sql.raw(`"l"."liked_id"`) : sql.raw(`"l"."liker_id"`);
  const check = visible(other, "l_visible");
  const when = type === "matches" ? sql.raw(`"l"."matched_at"`) : sql.raw(`"l"."created_at"`);
  const condition =
    type === "sent"
      ? sql`"l"."liker_id" = ${me} and "l"."matched_at" is null`
      : sql`"l"."liked_id" = ${me} and "l"."matched_at" ${type === "matches" ? sql`is not null` : sql`is null`}`;
  // Sent likes have no new flag: their order is the latest first.
  const seen = type === "sent" ? sql`true` : sql`"l"."seen"`;
  const order = type === "sent" ? sql`${when} desc nulls last, ${other}` : sql`"l"."seen", ${when} desc nulls last, ${other}`;
  return sql`select "card"."id", "card"."name", "card"."age", "card"."country", "card"."city", "card"."fictional",
      "card"."latitude", "card"."longitude", "page"."liked_at", "page"."seen"
    from (select ${other} as "profile_id", ${when} as "liked_at", ${seen} as "seen" from ${likes} as "l" ${check.join}
      where ${condition} and ${check.where} order by ${order} limit ${limit} offset ${offset}) as "page"
    ${card(sql`"page"."profile_id"`, "card")}
    order by ${type === "sent" ? sql`` : sql`"page"."seen", `}"page"."liked_at" desc nulls last, "page"."profile_id"`;
}

/** A condition on a profile id column: `me` has not liked that profile. */
export function notLikedByCondition(profileId: SQL, me: number): SQL {
  return sql`not exists (select 1 from ${likes} as "mine" where "mine"."liker_id" = ${me} and "mine"."liked_id" = ${profileId})`;
}

/** A condition on a profile id column: no like either way between that profile and `me`. */
export function noLikeEitherWayCondition(profileId: SQL, me: number): SQL {
  return sql`(${notLikedByCondition(profileId, me)} and not exists (select 1 from ${likes} as "theirs" where "theirs"."liked_id" = ${me} and "theirs"."liker_id" = ${profileId}))`;
}

/** A condition on a profile id column: `me` passed or liked it in the game since `since`. */
export function notSwipedSinceCondition(profileId: SQL, me: number, since: Date): SQL {
  return sql`not exists (select 1 from ${swipes} as "swiped" where "swiped"."profile_id" = ${me} and "swiped"."target_id" = ${profileId} and "swiped"."swiped_at" >= ${since.toISOString()}::timestamptz)`;
}

/** Whether `me` has sent any like (auto-like's condition). */
export async function hasSentLike(db: Db, me: number): Promise<boolean> {
  const [row] = await rowsOf<{ ok: boolean }>(
    db,
    sql`select exists (select 1 from ${likes} where ${likes.likerId} = ${me}) as ok`,
  );
  return !!row?.ok;
}

export type SwipeDayRow = typeof swipeDays.$inferSelect;

export async function findSwipeDay(db: DbOrTx, me: number, lock: boolean): Promise<SwipeDayRow | undefined> {
  const [row] = await rowsOf<{
    profile_id: number;
    time_zone: string;
    time_zone_changed_at: string | Date | null;
    day_start: string | Date;
    day_end: string | Date;
    swipes: number;
    likes: number;
  }>(db, sql`select * from ${swipeDays} where ${swipeDays.profileId} = ${me} ${lock ? sql`for update` : sql``}`);
  if (!row) return undefined;
  const date = (v: string | Date) => new Date(v);
  return {
    profileId: row.profile_id,
    timeZone: row.time_zone,
    timeZoneChangedAt: row.time_zone_changed_at === null ? null : date(row.time_zone_changed_at),
    dayStart: date(row.day_start),
    dayEnd: date(row.day_end),
    swipes: row.swipes,
    likes: row.likes,
  };
}

/** Creates the member's day row unless there is one (then locks whichever exists). */
export async function lockSwipeDay(tx: DbOrTx, initial: SwipeDayRow): Promise<SwipeDayRow> {
  await tx.insert(swipeDays).values(initial).onConflictDoNothing();
  const row = await findSwipeDay(tx, initial.profileId, true);
  if (!row) throw new Error("swipe day row missing after insert");
  return row;
}

export async function saveSwipeDay(tx: DbOrTx, row: SwipeDayRow): Promise<void> {
  const { profileId, ...values } = row;
  await tx.update(swipeDays).set(values).where(sql`${swipeDays.profileId} = ${profileId}`);
}

export async function recordSwipe(tx: DbOrTx, me: number, target: number, liked: boolean, at: Date): Promise<void> {
  await tx
    .insert(swipes)
    .values({ profileId: me, targetId: target, liked, swipedAt: at })
    .onConflictDoUpdate({ target: [swipes.profileId, swipes.targetId], set: { liked, swipedAt: at } });
}

/** When the member last got an automatic like, if ever. */
export async function lastAutoLike(db: Db, me: number): Promise<Date | null> {
  const [row] = await rowsOf<{ last_at: string | Date }>(
    db,
    sql`select ${autoLikes.lastAt} as last_at from ${autoLikes} where ${autoLikes.profileId} = ${me}`,
  );
  return row ? new Date(row.last_at) : null;
}

/**
 * Claims the member's automatic like for now: true when the last one was at least `intervalMs` ago (or
 * never); one statement, so two calls at once claim it once.
 */
export async function claimAutoLike(tx: DbOrTx, me: number, now: Date, intervalMs: number): Promise<boolean> {
  const rows = await rowsOf<{ profile_id: number }>(
    tx,
    sql`insert into ${autoLikes} (profile_id, last_at) values (${me}, ${now.toISOString()}::timestamptz)
        on conflict (profile_id) do update set last_at = excluded.last_at
        where ${autoLikes.lastAt} <= ${new Date(now.getTime() - intervalMs).toISOString()}::timestamptz
        returning ${autoLikes.profileId}`,
  );
  return rows.length > 0;
}

/**
 * Rows of `listed` (optionally only those matching `where`), in `order`, at most `limit`; without an
 * order, as `listed` comes (the profiles module's `inParts`: nearby first, read in rings).
 */
export function listedRows(db: DbOrTx, listed: ListedProfiles, options: { where?: SQL; order?: SQL; limit: number }) {
  return rowsOf<TeaserRow>(
    db,
    sql`select "id", "name", "age", "country", "city", "fictional", "latitude", "longitude" from ${listed.from}
        ${options.where ? sql`where ${options.where}` : sql``} ${options.order ? sql`order by ${options.order}` : sql``} limit ${options.limit}`,
  );
}

// The data export (issue #27)

/** Likes `me` gave and received, oldest first (both directions of every pair `me` is in). */
export function likesOf(db: DbOrTx, me: number) {
  return db
    .select({ likerId: likes.likerId, likedId: likes.likedId, createdAt: likes.createdAt, matchedAt: likes.matchedAt })
    .from(likes)
    .where(or(eq(likes.likerId, me), eq(likes.likedId, me)))
    .orderBy(asc(likes.createdAt));
}

/** The swipe game's passes and likes of `me`. */
export function swipesOf(db: DbOrTx, me: number) {
  return db
    .select({ targetId: swipes.targetId, liked: swipes.liked, swipedAt: swipes.swipedAt })
    .from(swipes)
    .where(eq(swipes.profileId, me))
    .orderBy(asc(swipes.swipedAt));
}
