import { and, asc, eq, gte, inArray, isNotNull, isNull, lte, ne, notInArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { profiles } from "./schema.ts";

export type ProfileRow = typeof profiles.$inferSelect;
export type NewProfile = typeof profiles.$inferInsert;

/** Age in whole years today, computed by the database so that every reader agrees. */
export const ageSql = sql<number>`date_part('year', age(current_date, ${profiles.birthDate}))::int`;

/** The columns of a profile card (TeaserRow). */
const teaserColumns = {
  id: profiles.id,
  name: profiles.name,
  age: ageSql,
  country: profiles.country,
  city: profiles.city,
  fictional: profiles.fictional,
  // For the bucketed distance only; never sent (ProfileService.presentTeasers picks the fields).
  latitude: profiles.latitude,
  longitude: profiles.longitude,
};

export interface TeaserRow {
  id: number;
  name: string;
  age: number;
  country: string;
  city: string | null;
  fictional: boolean;
  latitude: number | null;
  longitude: number | null;
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
    .where(and(eq(profiles.id, profileId), eq(profiles.status, "active"), visibleUser))
    .limit(1);
  return rows.length > 0;
}

/** Profiles with a city but no position (ProfileService.backfillPositions). */
export async function profilesWithoutPosition(
  db: Db,
): Promise<{ id: number; country: string; region: string | null; city: string }[]> {
  const rows = await db
    .select({ id: profiles.id, country: profiles.country, region: profiles.region, city: profiles.city })
    .from(profiles)
    .where(and(isNotNull(profiles.city), isNull(profiles.latitude)));
  return rows.flatMap((row) => (row.city ? [{ ...row, city: row.city }] : []));
}

export async function profileNames(db: Db, ids: readonly number[]): Promise<{ id: number; name: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: profiles.id, name: profiles.name })
    .from(profiles)
    .where(inArray(profiles.id, [...ids]));
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

/** What other modules may filter a list of profiles by (the search, match finder and teaser). */
export interface ProfileFilters {
  gender?: "male" | "female" | undefined;
  countries: readonly string[];
  region?: string | undefined;
  minAge?: number | undefined;
  maxAge?: number | undefined;
  /** Left out: the asker's own profile and those blocked either way. */
  excludeIds?: readonly number[] | undefined;
}

/** Birth-date bounds for an age range on `today` (index-friendly, instead of computing ages per row). */
export function birthDateBounds(today: Date, minAge?: number, maxAge?: number): { from?: string; to?: string } {
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  const shift = (years: number, days = 0) =>
    new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() + days));
  return {
    // At most maxAge: born after the day maxAge + 1 years ago.
    ...(maxAge !== undefined ? { from: iso(shift(maxAge + 1, 1)) } : {}),
    // At least minAge: born on or before the day minAge years ago.
    ...(minAge !== undefined ? { to: iso(shift(minAge)) } : {}),
  };
}

/**
 * Active profiles of visible members matching `filters`, as a subquery of card columns plus the
 * creation time lists sort by: what the profiles module lends to lists of other modules instead of its
 * table. PostgreSQL flattens it into the outer query, so its conditions and the outer order use the
 * same indexes as a query on the table itself (`profiles_listed_*`, decision 018).
 */
export function listedProfiles(db: Db, filters: ProfileFilters, visibleUser: SQL) {
  const bounds = birthDateBounds(new Date(), filters.minAge, filters.maxAge);
  return db
    .select({ ...teaserColumns, age: ageSql.as("age"), createdAt: profiles.createdAt })
    .from(profiles)
    .where(
      and(
        eq(profiles.status, "active"),
        filters.gender ? eq(profiles.gender, filters.gender) : undefined,
        inArray(profiles.country, [...filters.countries]),
        filters.region ? eq(profiles.region, filters.region) : undefined,
        bounds.from ? gte(profiles.birthDate, bounds.from) : undefined,
        bounds.to ? lte(profiles.birthDate, bounds.to) : undefined,
        filters.excludeIds?.length ? notInArray(profiles.id, [...filters.excludeIds]) : undefined,
        visibleUser,
      ),
    )
    .as("listed");
}
export type ListedProfiles = ReturnType<typeof listedProfiles>;

/** An active profile of a visible member, by id. */
export async function findVisibleProfile(db: Db, id: number, visibleUser: SQL): Promise<ProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, id), eq(profiles.status, "active"), visibleUser))
    .limit(1);
  return row;
}

/** Members like this one: same country and gender, nearest in age, with a public photo. */
export async function relatedProfiles(
  db: Db,
  options: { profile: ProfileRow; visibleUser: SQL; withPhoto: SQL; excludeProfileId: number | null; limit: number },
): Promise<TeaserRow[]> {
  return db
    .select(teaserColumns)
    .from(profiles)
    .where(
      and(
        eq(profiles.status, "active"),
        options.visibleUser,
        options.withPhoto,
        ne(profiles.id, options.profile.id),
        options.excludeProfileId ? ne(profiles.id, options.excludeProfileId) : undefined,
        eq(profiles.country, options.profile.country),
        eq(profiles.gender, options.profile.gender),
      ),
    )
    .orderBy(sql`abs(${profiles.birthDate} - ${options.profile.birthDate}::date)`, asc(profiles.id))
    .limit(options.limit);
}
