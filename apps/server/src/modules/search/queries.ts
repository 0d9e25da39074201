import { desc, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import type { ListedProfiles, TeaserRow } from "../profiles/service.ts";

/**
 * Rows of `listed` (the profiles module's subquery) that also match `where`, newest first, `offset` rows
 * in. Read in the order of the `profiles_listed_*` indexes, so a page stops after offset + limit
 * matches instead of sorting all of them (decision 018).
 */
export function newestListed(
  db: Db,
  listed: ListedProfiles,
  options: { where?: SQL | undefined; offset?: number; limit: number },
): Promise<TeaserRow[]> {
  return db
    .select({
      id: listed.id,
      name: listed.name,
      age: listed.age,
      country: listed.country,
      city: listed.city,
      fictional: listed.fictional,
      latitude: listed.latitude,
      longitude: listed.longitude,
    })
    .from(listed)
    .where(options.where)
    .orderBy(desc(listed.createdAt), desc(listed.id))
    .limit(options.limit)
    .offset(options.offset ?? 0);
}

/** How many rows of `listed` match `where`, counting no further than `cap` (the rest is never read). */
export async function countListedUpTo(db: Db, listed: ListedProfiles, where: SQL | undefined, cap: number): Promise<number> {
  if (cap <= 0) return 0;
  const upToCap = db
    .select({ one: sql<number>`1`.as("one") })
    .from(listed)
    .where(where)
    .limit(cap)
    .as("up_to_cap");
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(upToCap);
  return row?.n ?? 0;
}
