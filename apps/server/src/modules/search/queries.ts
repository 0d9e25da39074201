import { type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../platform/db/index.ts";
import type { ListedProfiles, TeaserRow } from "../profiles/service.ts";

/**
 * Rows of `listed` (the profiles module's subquery) that also match `where`, newest first, `offset` rows
 * in, each with its card's image (`mainThumb`, the photos module's lent column) read in the same
 * statement. Read in the order of the `profiles_listed_*` indexes, so a page stops after offset + limit
 * matches instead of sorting all of them (decision 018).
 */
export function newestListed(
  db: Db,
  listed: ListedProfiles,
  options: { where?: SQL | undefined; offset?: number; limit: number; mainThumb: SQL<string | null> },
): Promise<TeaserRow[]> {
  return rowsOf<TeaserRow>(
    db,
    sql`select "id", "name", "age", "country", "city", "fictional", "latitude", "longitude", ${options.mainThumb} as "main_thumb"
        from ${listed.from}
        ${options.where ? sql`where ${options.where}` : sql``}
        order by "created_at" desc, "id" desc limit ${options.limit} offset ${options.offset ?? 0}`,
  );
}

/** How many rows of `listed` match `where`, counting no further than `cap` (the rest is never read). */
export async function countListedUpTo(db: Db, listed: ListedProfiles, where: SQL | undefined, cap: number): Promise<number> {
  if (cap <= 0) return 0;
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as "n" from (select 1 from ${listed.from} ${where ? sql`where ${where}` : sql``} limit ${cap}) as "up_to_cap"`,
  );
  return row?.n ?? 0;
}
