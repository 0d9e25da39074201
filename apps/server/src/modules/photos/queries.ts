import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { photos } from "./schema.ts";

export type PhotoRow = typeof photos.$inferSelect;
export type NewPhoto = typeof photos.$inferInsert;

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
  return db
    .select()
    .from(photos)
    .where(and(inArray(photos.profileId, profileIds), eq(photos.isMain, true)));
}

export async function insertPhotos(db: Db, rows: NewPhoto[]): Promise<void> {
  if (rows.length) await db.insert(photos).values(rows);
}

/** Ids of profiles whose main image is active and public: a subquery for other modules' lists. */
export function profilesWithPublicMainSql(db: Db) {
  return sql`${db
    .select({ id: photos.profileId })
    .from(photos)
    .where(and(eq(photos.isMain, true), eq(photos.status, "active"), eq(photos.private, false)))}`;
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
    await tx.execute(sql`select pg_advisory_xact_lock(${7_300_000}, ${row.profileId})`);
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(photos).where(eq(photos.profileId, row.profileId));
    const n = count?.n ?? 0;
    if (n >= limit) return null;
    const [created] = await tx
      .insert(photos)
      .values({ ...row, isMain: n === 0, position: n })
      .returning();
    return created ?? null;
  });
}
