import type { ModerationReason } from "@app/contract";
import { and, asc, eq, gt, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import { photos } from "./schema.ts";

export type PhotoRow = typeof photos.$inferSelect;
export type NewPhoto = typeof photos.$inferInsert;

/** The advisory lock (with the profile id) under which a profile's photos are added or decided. */
const PHOTOS_LOCK = 7_300_000;

export async function findPhotoByFile(db: Db, file: string): Promise<PhotoRow | undefined> {
  const [row] = await db
    .select()
    .from(photos)
    .where(or(eq(photos.filename, file), eq(photos.thumbFilename, file)))
    .limit(1);
  return row;
}

export async function mainPhotos(db: Db, profileIds: number[]): Promise<PhotoRow[]> {
  if (profileIds.length === 0) return [];
  // One statement text for any number of ids (`= any($1)`), prepared once per connection: a list's
  // cards ask for their photos on every page.
  return db
    .select()
    .from(photos)
    .where(and(sql`${photos.profileId} = any(${sql.param(profileIds)}::int[])`, eq(photos.isMain, true)))
    .prepare("main_photos_of_profiles")
    .execute();
}

export async function insertPhotos(db: Db, rows: NewPhoto[]): Promise<void> {
  if (rows.length) await db.insert(photos).values(rows);
}

/** "The profile of `profileIdColumn` has an active, public main image", as an EXISTS condition. */
export function hasPublicMainCondition(profileIdColumn: SQL): SQL {
  return sql`exists (select 1 from ${photos} where ${photos.profileId} = ${profileIdColumn} and ${photos.isMain} and ${photos.status} = 'active' and not ${photos.private})`;
}

/** The thumbnail of the profile's active main photo (public or not), or null: a column for other modules' lists. */
export function mainThumbColumn(profileIdColumn: SQL): SQL<string | null> {
  return sql<
    string | null
  >`(select ${photos.thumbFilename} from ${photos} where ${photos.profileId} = ${profileIdColumn} and ${photos.isMain} and ${photos.status} = 'active' limit 1)`;
}

export async function photosOfProfile(db: Db, profileId: number): Promise<PhotoRow[]> {
  return db.select().from(photos).where(eq(photos.profileId, profileId)).orderBy(asc(photos.position), asc(photos.id));
}

/**
 * Adds a photo unless the profile already has `limit` (checked and written under a row lock on the
 * profile's photos, so two uploads at once cannot both pass). The first photo becomes the main one.
 */
export async function insertPhotoWithinLimit(db: Db, row: NewPhoto, limit: number): Promise<PhotoRow | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PHOTOS_LOCK}, ${row.profileId})`);
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(photos).where(eq(photos.profileId, row.profileId));
    const n = count?.n ?? 0;
    if (n >= limit) return null;
    // The first photo becomes the main one, and so does a new one when none is main (the main was rejected).
    const [main] = await tx
      .select({ id: photos.id })
      .from(photos)
      .where(and(eq(photos.profileId, row.profileId), eq(photos.isMain, true)));
    const [created] = await tx
      .insert(photos)
      .values({ ...row, isMain: !main, position: n })
      .returning();
    return created ?? null;
  });
}

export async function findPhotoOfProfile(db: Db, photoId: number, profileId: number): Promise<PhotoRow | undefined> {
  const [row] = await db
    .select()
    .from(photos)
    .where(and(eq(photos.id, photoId), eq(photos.profileId, profileId)))
    .limit(1);
  return row;
}

/** Makes one photo the main one (the partial unique index allows one per profile). */
export async function setMainPhoto(db: Db, profileId: number, photoId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(photos)
      .set({ isMain: false })
      .where(and(eq(photos.profileId, profileId), eq(photos.isMain, true)));
    await tx
      .update(photos)
      .set({ isMain: true })
      .where(and(eq(photos.profileId, profileId), eq(photos.id, photoId)));
  });
}

export async function setPhotoPrivate(db: Db, profileId: number, photoId: number, isPrivate: boolean): Promise<void> {
  await db
    .update(photos)
    .set({ private: isPrivate })
    .where(and(eq(photos.profileId, profileId), eq(photos.id, photoId)));
}

/** Moves a photo to `position` (0-based) and renumbers the others 0..n-1 in order. */
export async function movePhoto(db: Db, profileId: number, photoId: number, position: number): Promise<void> {
  await db.transaction(async (tx) => {
    const ordered = await tx
      .select()
      .from(photos)
      .where(eq(photos.profileId, profileId))
      .orderBy(asc(photos.position), asc(photos.id));
    const moving = ordered.find((p) => p.id === photoId);
    if (!moving) return;
    const rest = ordered.filter((p) => p.id !== photoId);
    rest.splice(Math.max(0, Math.min(position, rest.length)), 0, moving);
    for (const [index, photo] of rest.entries()) {
      if (photo.position !== index) await tx.update(photos).set({ position: index }).where(eq(photos.id, photo.id));
    }
  });
}

/** Deletes a photo row; when it was the main one, the first remaining photo becomes main. */
export async function deletePhoto(db: Db, profileId: number, photoId: number): Promise<PhotoRow | undefined> {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(photos)
      .where(and(eq(photos.profileId, profileId), eq(photos.id, photoId)))
      .returning();
    if (removed?.isMain) {
      const [next] = await tx
        .select()
        .from(photos)
        .where(eq(photos.profileId, profileId))
        .orderBy(asc(photos.position), asc(photos.id))
        .limit(1);
      if (next) await tx.update(photos).set({ isMain: true }).where(eq(photos.id, next.id));
    }
    return removed;
  });
}

/** Which part of a review queue to read: after a (time, id) cursor, of one profile. */
export interface ReviewQueueOptions {
  after?: { at: Date; id: number } | undefined;
  profileId?: number | undefined;
}

export async function photosByIds(db: Db, ids: readonly number[]): Promise<PhotoRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(photos)
    .where(inArray(photos.id, [...ids]));
}

/** The photos waiting for review, oldest first (partial index photos_review_queue), of one profile or all. */
export async function photosInReview(db: Db, limit: number, options: ReviewQueueOptions = {}): Promise<PhotoRow[]> {
  const { after, profileId } = options;
  return db
    .select()
    .from(photos)
    .where(
      and(
        eq(photos.reviewPending, true),
        profileId === undefined ? undefined : eq(photos.profileId, profileId),
        after ? or(gt(photos.createdAt, after.at), and(eq(photos.createdAt, after.at), gt(photos.id, after.id))) : undefined,
      ),
    )
    .orderBy(asc(photos.createdAt), asc(photos.id))
    .limit(limit);
}

/** How many photos wait for review. */
export async function countPhotosInReview(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(photos).where(eq(photos.reviewPending, true));
  return row?.n ?? 0;
}

/**
 * Records a moderator's decision on a photo still waiting for review (null when it no longer waits:
 * deleted, or decided by someone else meanwhile). A rejected photo stops being the main one; a profile
 * left without a main photo gets its first active one as main, so that others see a main image again.
 */
export async function decidePhoto(
  tx: DbOrTx,
  photoId: number,
  decision: { approve: true } | { approve: false; reason: ModerationReason },
): Promise<PhotoRow | null> {
  const [decided] = await tx
    .update(photos)
    .set({
      reviewPending: false,
      reviewedAt: new Date(),
      status: decision.approve ? "active" : "rejected",
      rejectionReason: decision.approve ? null : decision.reason,
      ...(decision.approve ? {} : { isMain: false }),
    })
    .where(and(eq(photos.id, photoId), eq(photos.reviewPending, true)))
    .returning();
  if (!decided) return null;
  // The profile's photo lock (as an upload takes it): two decisions at once never make two main photos.
  await tx.execute(sql`select pg_advisory_xact_lock(${PHOTOS_LOCK}, ${decided.profileId})`);
  const [main] = await tx
    .select({ id: photos.id })
    .from(photos)
    .where(and(eq(photos.profileId, decided.profileId), eq(photos.isMain, true)));
  if (!main) {
    // Without a main photo (the main one was just rejected, or was rejected earlier), the first active one takes its place.
    const [next] = await tx
      .select({ id: photos.id })
      .from(photos)
      .where(and(eq(photos.profileId, decided.profileId), eq(photos.status, "active")))
      .orderBy(asc(photos.position), asc(photos.id))
      .limit(1);
    if (next) {
      await tx.update(photos).set({ isMain: true }).where(eq(photos.id, next.id));
      if (next.id === decided.id) decided.isMain = true;
    }
  }
  return decided;
}
