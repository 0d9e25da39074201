import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { namedRows } from "../../platform/db/named.ts";
import type { ListedProfiles, TeaserRow } from "../profiles/service.ts";

// Both statements of a search page run as named prepared statements (one name per shape: which filters
// are set): at 100k profiles their planning cost as much as their execution (0.4–0.8 ms each, decision
// 018). `npm run bench:search` (bench/notes/search-runs.md, 2026-11-27), the same unnamed baseline in
// both runs: a visitor's page 1.18 of it named against 0.85 unnamed, a member's 0.87 against 0.78.

/** The order of a list that ends in the `profiles_listed_*` indexes' order: newest first. */
export const NEWEST_ORDER = sql`"created_at" desc, "id" desc`;

const CARD_COLUMNS = sql.raw(`"id", "name", "age", "country", "city", "fictional", "latitude", "longitude"`);

/**
 * Rows of `listed` (the profiles module's subquery) that also match `where`, `offset` rows in, each with
 * its card's image (`mainThumb`, the photos module's lent column) and the lent `columns` (the presence
 * label) read in the same statement. Newest first by default, read in the order of the `profiles_listed_*`
 * indexes, so a page stops after offset + limit matches instead of sorting all of them (decision 018).
 * `inOrder`: `listed` already comes in the list's order (the profiles module's `inParts`, nearby first in
 * rings), read as it comes.
 */
export function orderedListed(
  db: Db,
  listed: ListedProfiles,
  options: {
    where?: SQL | undefined;
    inOrder?: boolean;
    offset?: number;
    limit: number;
    mainThumb: SQL<string | null>;
    columns?: SQL | undefined;
  },
): Promise<TeaserRow[]> {
  const { where, offset = 0, limit } = options;
  // The page's rows first (a subquery with a limit stays a subquery, read in its order), then their image and
  // lent columns: on the outer level those were read for the `offset` rows skipped too.
  return namedRows<TeaserRow>(
    db,
    sql`select ${CARD_COLUMNS}, ${options.mainThumb} as "main_thumb"${options.columns ? sql`, ${options.columns}` : sql``}
        from (select * from ${listed.from} ${where ? sql`where ${where}` : sql``}
          ${options.inOrder ? sql`` : sql`order by ${NEWEST_ORDER}`} limit ${limit} offset ${offset}) as "listed"`,
  );
}

/** How many rows of `listed` match `where`, counting no further than `cap` (the rest is never read). */
export async function countListedUpTo(db: Db, listed: ListedProfiles, where: SQL | undefined, cap: number): Promise<number> {
  if (cap <= 0) return 0;
  const [row] = await namedRows<{ n: number }>(
    db,
    sql`select count(*)::int as "n" from (select 1 from ${listed.from} ${where ? sql`where ${where}` : sql``} limit ${cap}) as "up_to_cap"`,
  );
  return row?.n ?? 0;
}
