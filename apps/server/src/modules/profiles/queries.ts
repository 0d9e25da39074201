import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, ne, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
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

/**
 * Active profiles of visible members for the public teaser, newest first. Who is visible (the accounts
 * module's rule) and who has a public photo (the photos module's) come in as SQL conditions.
 */
export async function teaserProfiles(
  db: Db,
  options: { limit: number; countries: readonly string[]; visibleUser: SQL; withPhoto: SQL },
): Promise<TeaserRow[]> {
  return db
    .select(teaserColumns)
    .from(profiles)
    .where(
      and(
        eq(profiles.status, "active"),
        inArray(profiles.country, [...options.countries]),
        options.visibleUser,
        options.withPhoto,
      ),
    )
    .orderBy(desc(profiles.createdAt), desc(profiles.id))
    .limit(options.limit);
}

export async function insertProfile(db: DbOrTx, row: NewProfile): Promise<ProfileRow> {
  const [created] = await db.insert(profiles).values(row).returning();
  if (!created) throw new Error("profile insert returned nothing");
  return created;
}

export async function countProfiles(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(profiles);
  return row?.n ?? 0;
}

/** Whether a profile is active and its member visible to others. */
/** A lent condition on a profile id column: an active profile whose member passes `visibleUser`. */
export function activeProfileCondition(profileId: SQL, visibleUser: (userId: SQL) => SQL): SQL {
  // Aliased, so that a caller passing this table's own id column compares with its row, not ours.
  const p = alias(profiles, "visible_profile");
  return sql`exists (select 1 from ${profiles} as ${sql.identifier("visible_profile")} where ${p.id} = ${profileId} and ${p.status} = 'active' and ${visibleUser(sql`${p.userId}`)})`;
}

/** A lent expression: the profile id of the member in a user id column. */
export function profileIdOfUserColumn(userId: SQL): SQL<number | null> {
  const p = alias(profiles, "member_profile");
  const from = sql`from ${profiles} as ${sql.identifier("member_profile")} where ${p.userId} = ${userId}`;
  return sql<number | null>`(select ${p.id} ${from})`;
}

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

export async function findProfileOfUser(db: DbOrTx, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return row;
}

export async function setStatusOfUser(db: DbOrTx, userId: number, status: ProfileRow["status"]): Promise<void> {
  await db.update(profiles).set({ status, updatedAt: new Date() }).where(eq(profiles.userId, userId));
}

export async function updateProfile(db: DbOrTx, id: number, values: Partial<NewProfile>): Promise<ProfileRow | undefined> {
  const [row] = await db
    .update(profiles)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(profiles.id, id))
    .returning();
  return row;
}

export interface SearchFilters {
  gender?: "male" | "female" | undefined;
  countries: readonly string[];
  region?: string | undefined;
  minAge?: number | undefined;
  maxAge?: number | undefined;
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

function searchCondition(filters: SearchFilters, visibleUser: SQL, excludeProfileId: number | null) {
  const bounds = birthDateBounds(new Date(), filters.minAge, filters.maxAge);
  return and(
    eq(profiles.status, "active"),
    visibleUser,
    excludeProfileId ? ne(profiles.id, excludeProfileId) : undefined,
    filters.gender ? eq(profiles.gender, filters.gender) : undefined,
    inArray(profiles.country, [...filters.countries]),
    filters.region ? eq(profiles.region, filters.region) : undefined,
    bounds.from ? gte(profiles.birthDate, bounds.from) : undefined,
    bounds.to ? lte(profiles.birthDate, bounds.to) : undefined,
  );
}

/** Match suggestions: the filters, members with a public photo only, the given country first. */
export async function matchProfiles(
  db: Db,
  options: {
    filters: SearchFilters;
    visibleUser: SQL;
    withPhoto: SQL;
    excludeProfileId: number | null;
    country: string;
    limit: number;
  },
): Promise<TeaserRow[]> {
  return db
    .select(teaserColumns)
    .from(profiles)
    .where(and(searchCondition(options.filters, options.visibleUser, options.excludeProfileId), options.withPhoto))
    .orderBy(sql`(${profiles.country} = ${options.country}) desc`, desc(profiles.createdAt), desc(profiles.id))
    .limit(options.limit);
}

/** One page of search results (members with a public photo first, then newest) and the total. */
export async function searchProfiles(
  db: Db,
  options: {
    filters: SearchFilters;
    visibleUser: SQL;
    withPhoto: SQL;
    excludeProfileId: number | null;
    limit: number;
    offset: number;
  },
): Promise<{ rows: TeaserRow[]; total: number }> {
  const where = searchCondition(options.filters, options.visibleUser, options.excludeProfileId);
  // Independent statements: on a pool they run side by side (PGlite serialises them anyway).
  const [[count], rows] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(profiles).where(where),
    db
      .select(teaserColumns)
      .from(profiles)
      .where(where)
      .orderBy(sql`(${options.withPhoto}) desc`, desc(profiles.createdAt), desc(profiles.id))
      .limit(options.limit)
      .offset(options.offset),
  ]);
  return { rows, total: count?.n ?? 0 };
}

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
