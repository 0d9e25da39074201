import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { profiles } from "./schema.ts";

export type ProfileRow = typeof profiles.$inferSelect;
export type NewProfile = typeof profiles.$inferInsert;

/** Age in whole years today, computed by the database so that every reader agrees. */
export const ageSql = sql<number>`date_part('year', age(current_date, ${profiles.birthDate}))::int`;

export interface TeaserRow {
  id: number;
  name: string;
  age: number;
  country: string;
  city: string | null;
  fictional: boolean;
}

/**
 * Active profiles of visible members for the public teaser, newest first. `visibleUserIds` filtering
 * (invisible, pending deletion) is the accounts module's rule; it hands over a SQL condition.
 */
export async function teaserProfiles(
  db: Db,
  options: { limit: number; countries: readonly string[]; visibleUser: SQL; withPhoto: SQL },
): Promise<TeaserRow[]> {
  return db
    .select({
      id: profiles.id,
      name: profiles.name,
      age: ageSql,
      country: profiles.country,
      city: profiles.city,
      fictional: profiles.fictional,
    })
    .from(profiles)
    .where(
      and(
        eq(profiles.status, "active"),
        inArray(profiles.country, [...options.countries]),
        sql`${profiles.userId} in (${options.visibleUser})`,
        sql`${profiles.id} in (${options.withPhoto})`,
      ),
    )
    .orderBy(desc(profiles.createdAt), desc(profiles.id))
    .limit(options.limit);
}

type Tx = Pick<Db, "insert" | "update" | "select">;

export async function insertProfile(db: Tx, row: NewProfile): Promise<ProfileRow> {
  const [created] = await db.insert(profiles).values(row).returning();
  if (!created) throw new Error("profile insert returned nothing");
  return created;
}

export async function countProfiles(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(profiles);
  return row?.n ?? 0;
}

/** Whether a profile is active and its member visible to others. */
export async function isPublicProfile(db: Db, profileId: number, visibleUser: SQL): Promise<boolean> {
  const rows = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.status, "active"), sql`${profiles.userId} in (${visibleUser})`))
    .limit(1);
  return rows.length > 0;
}

export async function findProfileOfUser(db: Tx, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return row;
}

export async function setStatusOfUser(db: Tx, userId: number, status: ProfileRow["status"]): Promise<void> {
  await db.update(profiles).set({ status, updatedAt: new Date() }).where(eq(profiles.userId, userId));
}

export async function updateProfile(db: Tx, id: number, values: Partial<NewProfile>): Promise<ProfileRow | undefined> {
  const [row] = await db
    .update(profiles)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(profiles.id, id))
    .returning();
  return row;
}
