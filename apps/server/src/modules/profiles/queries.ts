import { DISTANCE_BUCKETS_KM, type ModerationReason } from "@app/contract";
import { and, asc, eq, gt, inArray, isNotNull, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import type { Coordinates } from "../location/service.ts";
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
  /**
   * The active main photo's thumbnail when the list's statement read it (photos' lent `mainThumbOf`),
   * null without one; absent: `presentCards` looks the images up.
   */
  main_thumb?: string | null;
}

export async function insertProfile(db: DbOrTx, row: NewProfile): Promise<ProfileRow> {
  // A profile made with an about text (the seed's, a test's) starts with it approved.
  const [created] = await db
    .insert(profiles)
    .values({ aboutApproved: row.about ?? "", ...row })
    .returning();
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

/**
 * A lent subquery: the ids of the profiles nobody may see, those not active (partial index
 * profiles_inactive) and those of the members in `hiddenUsers` (a subquery of user ids). Few rows, so a
 * count over a long list hashes them once (`not in`), where `activeProfileCondition` would look up each row.
 * `= any(array(...))`: the hidden members' profiles by profiles_user_unique, not a scan of every profile.
 */
export function hiddenProfileIds(hiddenUsers: SQL): SQL {
  const inactive = alias(profiles, "inactive_profile");
  const ofHidden = alias(profiles, "hidden_member_profile");
  return sql`select ${inactive.id} from ${profiles} as ${sql.identifier("inactive_profile")} where ${inactive.status} <> 'active'
    union all select ${ofHidden.id} from ${profiles} as ${sql.identifier("hidden_member_profile")} where ${ofHidden.userId} = any(array(${hiddenUsers}))`;
}

/** A lent expression: the profile id of the member in a user id column. */
export function profileIdOfUserColumn(userId: SQL): SQL<number | null> {
  const p = alias(profiles, "member_profile");
  const from = sql`from ${profiles} as ${sql.identifier("member_profile")} where ${p.userId} = ${userId}`;
  return sql<number | null>`(select ${p.id} ${from})`;
}

/** A lent expression: the user id (member) of the profile in a profile id column. */
export function userIdOfProfileColumn(profileId: SQL): SQL<number | null> {
  const p = alias(profiles, "profile_member");
  return sql<
    number | null
  >`(select ${p.userId} from ${profiles} as ${sql.identifier("profile_member")} where ${p.id} = ${profileId})`;
}

/** What a swipe card shows beyond the teaser: the about text and interests, by profile id. */
export async function profileDetails(
  db: Db,
  ids: readonly number[],
): Promise<{ id: number; about: string; interests: string[] }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: profiles.id, about: profiles.about, interests: profiles.interests })
    .from(profiles)
    .where(inArray(profiles.id, [...ids]));
}

/** Lent expressions: the city centre (latitude, longitude) of the member in a user id column. */
export function positionOfUserColumn(userId: SQL): { latitude: SQL<number | null>; longitude: SQL<number | null> } {
  const p = alias(profiles, "member_position");
  const from = sql`from ${profiles} as ${sql.identifier("member_position")} where ${p.userId} = ${userId}`;
  return {
    latitude: sql<number | null>`(select ${p.latitude} ${from})`,
    longitude: sql<number | null>`(select ${p.longitude} ${from})`,
  };
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

/** The member (user id) whose profile this is, or null when there is no such profile. */
export async function ownerOfProfile(db: Db, profileId: number): Promise<number | null> {
  const [row] = await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.id, profileId)).limit(1);
  return row?.userId ?? null;
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

/** What other modules may filter a list of profiles by (the search, match finder and teaser). */
export interface ProfileFilters {
  gender?: "male" | "female" | undefined;
  /** The site's countries; undefined: any country (a member's own lists, such as their likes). */
  countries?: readonly string[] | undefined;
  region?: string | undefined;
  minAge?: number | undefined;
  maxAge?: number | undefined;
  /** Left out: the asker's own profile. */
  excludeIds?: readonly number[] | undefined;
  /** A condition another module lends on the profile id (e.g. the blocks module's "no block either way"). */
  condition?: ((profileIdColumn: SQL) => SQL) | undefined;
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
 * Active profiles of visible members matching `filters`, as a subquery: what the profiles module lends to
 * lists of other modules instead of its table. `from` goes after FROM and yields the card columns of
 * TeaserRow plus `created_at`; `id` names its profile id (for conditions such as the photos module's).
 * PostgreSQL flattens it into the outer query, so the conditions and the outer order use the indexes of
 * the table (`profiles_search`, `profiles_listed_*`, decision 018). Written as SQL text rather than with
 * the query builder: building the builder's version took about 1 ms of CPU per search (decision 018).
 */
export interface ListedProfiles {
  from: SQL;
  id: SQL;
  /** The member's user id column (for another module's condition, such as "online now"). */
  userId: SQL;
}

const LISTED_COLUMNS = sql.raw(
  `"id", "name", date_part('year', age(current_date, "birth_date"))::int as "age", "country", "city", "fictional", "latitude", "longitude", "created_at", "user_id"`,
);

export function listedProfiles(filters: ProfileFilters, visibleUser: SQL): ListedProfiles {
  const bounds = birthDateBounds(new Date(), filters.minAge, filters.maxAge);
  const conditions = [
    sql`"status" = 'active'`,
    ...(filters.gender ? [sql`"gender" = ${filters.gender}`] : []),
    // One country as equality: the index then gives the order (decision 018).
    ...(filters.countries === undefined
      ? []
      : [
          filters.countries.length === 1
            ? sql`"country" = ${filters.countries[0]}`
            : sql`"country" = any(${sql.param([...filters.countries])}::text[])`,
        ]),
    ...(filters.region ? [sql`"region" = ${filters.region}`] : []),
    ...(bounds.from ? [sql`"birth_date" >= ${bounds.from}::date`] : []),
    ...(bounds.to ? [sql`"birth_date" <= ${bounds.to}::date`] : []),
    ...(filters.excludeIds?.length ? [sql`"id" <> all(${sql.param([...filters.excludeIds])}::int[])`] : []),
    ...(filters.condition ? [filters.condition(sql`${profiles.id}`)] : []),
    visibleUser,
  ];
  return {
    from: sql`(select ${LISTED_COLUMNS} from ${profiles} where ${sql.join(conditions, sql` and `)}) as "listed"`,
    id: sql.raw(`"listed"."id"`),
    userId: sql.raw(`"listed"."user_id"`),
  };
}

/**
 * The distance bucket (index into DISTANCE_BUCKETS_KM, its length for "more than the last", null when
 * either position is unknown) between `origin` and the city centre of a row of `listedProfiles`: the
 * haversine of geokdbush's `distance` (earth radius 6371 km) on the stored city centres, so the order
 * agrees with the bucket each card shows and says nothing finer than it (decision 010, issue #29).
 */
export function distanceBucketOf(origin: Coordinates): SQL<number | null> {
  const km = sql`2 * 6371 * asin(sqrt(power(sin(radians("latitude" - ${origin.lat}::float8) / 2), 2) + cos(radians(${origin.lat}::float8)) * cos(radians("latitude")) * power(sin(radians("longitude" - ${origin.lon}::float8) / 2), 2)))`;
  // width_bucket: how many bounds are at most `km` (0 under the first, the list's length past the last).
  const bounds = sql.raw(`array[${DISTANCE_BUCKETS_KM.map(Number).join(",")}]::float8[]`);
  return sql<number | null>`width_bucket(${km}, ${bounds})`;
}

/**
 * "Nearby first" over a row of `listedProfiles` (issue #29): the country of the asker's profile first (read
 * in the statement, once: the session carries no country), then the distance bucket between city centres
 * (unknown positions last). Empty for a visitor.
 */
export function nearbyOrderOf(asker: { profileId: number | null; origin?: Coordinates | null | undefined }): SQL[] {
  return [
    ...(asker.profileId
      ? [sql`("country" = (select "own"."country" from ${profiles} as "own" where "own"."id" = ${asker.profileId})) desc`]
      : []),
    ...(asker.origin ? [sql`${distanceBucketOf(asker.origin)} asc nulls last`] : []),
  ];
}

/** One part of "nearby first" read on its own (`nearbyRingsOf`): its rows, and their order within it. */
export interface NearbyRing {
  where: SQL;
  /** The nearby keys that still vary within the ring; the caller adds its own keys after them. */
  order: SQL[];
}

/**
 * The rings read outward (issue #29), as the last bucket index of each: within 25 km, 100 km and 250 km
 * (DISTANCE_BUCKETS_KM 5, 10, 25 | 50, 100 | 250). Everything further, in other countries or without a
 * position, is the rest.
 */
const RING_LAST_BUCKETS = [2, 4, 5] as const;

/** Degrees of latitude and longitude around `origin` that hold every point within `km` (null: no box, it wraps). */
function boundingBox(origin: Coordinates, km: number): { lat: [number, number]; lon: [number, number] | null } {
  const angle = km / 6371;
  // A little margin over the exact bounds: the box only narrows the read, the bucket decides.
  const dLat = (angle * 180) / Math.PI + 1e-6;
  const lat: [number, number] = [origin.lat - dLat, origin.lat + dLat];
  const ratio = Math.sin(angle) / Math.cos((origin.lat * Math.PI) / 180);
  if (lat[0] <= -90 || lat[1] >= 90 || !(ratio < 1)) return { lat, lon: null };
  const dLon = (Math.asin(ratio) * 180) / Math.PI + 1e-6;
  const lon: [number, number] = [origin.lon - dLon, origin.lon + dLon];
  return { lat, lon: lon[0] < -180 || lon[1] > 180 ? null : lon };
}

/**
 * "Nearby first" (`nearbyOrderOf`) cut into parts read one after the other, nearest first, so that a page
 * stops at the nearest ring that fills it instead of sorting every match (issue #29, decision 018): the
 * asker's country within 25 km, then 100 km, then 250 km, each a latitude band on `profiles_rings`
 * (longitude checked in the index too) and the exact bucket; then the rest in the full order. Read in
 * this order, the parts give exactly `nearbyOrderOf`'s order. Null without a country and a position.
 */
export function nearbyRingsOf(asker: { profileId: number | null; origin?: Coordinates | null | undefined }): NearbyRing[] | null {
  const { profileId, origin } = asker;
  if (!profileId || !origin) return null;
  const own = sql`"country" = (select "own"."country" from ${profiles} as "own" where "own"."id" = ${profileId})`;
  const bucket = distanceBucketOf(origin);
  let first = 0;
  const rings: NearbyRing[] = RING_LAST_BUCKETS.map((last) => {
    const box = boundingBox(origin, DISTANCE_BUCKETS_KM[last] ?? 0);
    const conditions = [
      own,
      sql`"latitude" between ${box.lat[0]}::float8 and ${box.lat[1]}::float8`,
      ...(box.lon ? [sql`"longitude" between ${box.lon[0]}::float8 and ${box.lon[1]}::float8`] : []),
      first === last ? sql`${bucket} = ${last}` : sql`${bucket} between ${first} and ${last}`,
    ];
    const order = first === last ? [] : [sql`${bucket} asc`];
    first = last + 1;
    return { where: sql.join(conditions, sql` and `), order };
  });
  const nearest = RING_LAST_BUCKETS[RING_LAST_BUCKETS.length - 1];
  // The rest: not in a ring (null buckets are unknown positions: not in one either).
  rings.push({ where: sql`not (${own} and coalesce(${bucket} <= ${nearest}, false))`, order: nearbyOrderOf(asker) });
  return rings;
}

/** A part of a list read on its own (a ring of "nearby first", the members online now): its rows and their order. */
export interface ListPart {
  where?: SQL | undefined;
  order: SQL;
}

/**
 * "Nearby first" for `asker` as parts read one after the other (issue #29, decision 018): the rings of
 * `nearbyRingsOf` nearest first, each in the keys that still vary in it, then `tail`, then newest; one part
 * in the whole order where there are no rings (no country or position).
 */
export function nearbyPartsOf(
  asker: { profileId: number | null; origin?: Coordinates | null | undefined },
  tail: readonly SQL[],
): ListPart[] {
  const rings = nearbyRingsOf(asker) ?? [{ where: undefined, order: nearbyOrderOf(asker) }];
  return rings.map((ring) => ({
    where: ring.where,
    order: sql.join([...ring.order, ...tail, sql`"created_at" desc, "id" desc`], sql`, `),
  }));
}

/**
 * `listed` rows that match `where`, read as `parts` one after the other, as a from-item with the same
 * names (`id`, `user_id`, the card columns): a `union all` of each part's first `upTo` rows (a top-N sort
 * within the part). Selected without an order and under a limit of at most `upTo`, its rows come in the
 * parts' order and the read stops at the part that fills the limit: PostgreSQL's Append runs its
 * branches in the order written (the Append stays serial; a branch may be parallel inside), so the parts
 * further out are never read (decision 018, "Nearby first").
 */
export function listedInParts(
  listed: ListedProfiles,
  parts: readonly ListPart[],
  where: SQL | undefined,
  upTo: number,
): ListedProfiles {
  const reads = parts.map((part) => {
    const condition = and(where, part.where);
    return sql`(select * from ${listed.from} ${condition ? sql`where ${condition}` : sql``} order by ${part.order} limit ${upTo})`;
  });
  // The same alias as `listed`'s, so conditions and lent columns on `id` and `user_id` name its rows alike.
  return { from: sql`(${sql.join(reads, sql` union all `)}) as "listed"`, id: listed.id, userId: listed.userId };
}

/**
 * A lent from-item: the card columns (TeaserRow's, plus `created_at`) of the profile in `profileId`, as
 * `alias`, one primary-key look-up per row of the caller's list (for short lists already paged, such as
 * a page of likes). Visibility is the caller's to check (VisibilityPolicy).
 */
export function cardOfColumn(profileId: SQL, alias: string): SQL {
  return sql`cross join lateral (select ${LISTED_COLUMNS} from ${profiles} as "card_profile" where "card_profile"."id" = ${profileId}) as ${sql.identifier(alias)}`;
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

/** Names and members (user ids) of profiles by id, whatever their visibility (the staff's review queue). */
export async function profileMembers(db: Db, ids: readonly number[]): Promise<{ id: number; userId: number; name: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: profiles.id, userId: profiles.userId, name: profiles.name })
    .from(profiles)
    .where(inArray(profiles.id, [...ids]));
}

export interface AboutInReview {
  profileId: number;
  userId: number;
  name: string;
  text: string;
  /** What others see meanwhile when the site reviews before (the last approved text). */
  approved: string;
  /** Others see this text meanwhile (the site reviews after). */
  live: boolean;
  submittedAt: Date;
}

const aboutInReviewColumns = {
  profileId: profiles.id,
  userId: profiles.userId,
  name: profiles.name,
  text: sql<string>`${profiles.aboutReview}`,
  approved: profiles.aboutApproved,
  live: sql<boolean>`${profiles.about} = ${profiles.aboutReview}`,
  submittedAt: sql<Date>`${profiles.aboutSubmittedAt}`.mapWith(profiles.aboutSubmittedAt),
};

/** About texts waiting for review, oldest first (partial index profiles_about_review_queue), of one profile or all. */
export async function aboutTextsInReview(
  db: Db,
  limit: number,
  options: { after?: { at: Date; id: number } | undefined; profileId?: number | undefined } = {},
): Promise<AboutInReview[]> {
  const { after, profileId } = options;
  return db
    .select(aboutInReviewColumns)
    .from(profiles)
    .where(
      and(
        isNotNull(profiles.aboutReview),
        profileId === undefined ? undefined : eq(profiles.id, profileId),
        after
          ? or(gt(profiles.aboutSubmittedAt, after.at), and(eq(profiles.aboutSubmittedAt, after.at), gt(profiles.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(asc(profiles.aboutSubmittedAt), asc(profiles.id))
    .limit(limit);
}

export async function countAboutTextsInReview(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(profiles).where(isNotNull(profiles.aboutReview));
  return row?.n ?? 0;
}

/**
 * A moderator's decision on the about text a profile submitted at `submittedAt` (null when that text no
 * longer waits: decided meanwhile, or the member wrote another since). Approved, it becomes the text
 * others see and the last approved one; rejected, the profile reverts to the last approved one.
 */
export async function decideAbout(
  tx: DbOrTx,
  profileId: number,
  submittedAt: Date,
  decision: { approve: true } | { approve: false; reason: ModerationReason },
): Promise<AboutInReview | null> {
  const waiting = and(eq(profiles.id, profileId), isNotNull(profiles.aboutReview), eq(profiles.aboutSubmittedAt, submittedAt));
  const [row] = await tx.select(aboutInReviewColumns).from(profiles).where(waiting).for("update");
  if (!row) return null;
  await tx
    .update(profiles)
    .set(
      decision.approve
        ? { about: row.text, aboutApproved: row.text, aboutReview: null, aboutSubmittedAt: null, aboutRejection: null }
        : {
            about: sql`${profiles.aboutApproved}`,
            aboutReview: null,
            aboutSubmittedAt: null,
            aboutRejection: decision.reason,
          },
    )
    .where(eq(profiles.id, profileId));
  return row;
}
