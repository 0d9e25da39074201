import { and, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { namedRows } from "../../platform/db/named.ts";
import type { ListedProfiles, TeaserRow } from "../profiles/service.ts";

// Both statements of a search page run as named prepared statements (one name per shape: which filters
// are set): at 100k profiles their planning cost as much as their execution (0.4–0.8 ms each, decision
// 018). `npm run bench:search` (bench/notes/search-runs.md, 2026-11-27), the same unnamed baseline in
// both runs: a visitor's page 1.18 of it named against 0.85 unnamed, a member's 0.87 against 0.78.

/** The order of a list that ends in the `profiles_listed_*` indexes' order: newest first. */
export const NEWEST_ORDER = sql`"created_at" desc, "id" desc`;

/** A part of a list read on its own (a ring of "nearby first", the members online now): its rows and their order. */
export interface ListPart {
  where?: SQL | undefined;
  order: SQL;
}

const CARD_COLUMNS = sql.raw(`"id", "name", "age", "country", "city", "fictional", "latitude", "longitude"`);

/**
 * Rows of `listed` (the profiles module's subquery) that also match `where`, `offset` rows in, each with
 * its card's image (`mainThumb`, the photos module's lent column) and the lent `columns` (the presence
 * label) read in the same statement. Without `parts`, newest first, read in the order of the
 * `profiles_listed_*` indexes, so a page stops after offset + limit matches instead of sorting all of them
 * (decision 018).
 *
 * With `parts` (an order cut into parts read one after the other: the rings of "nearby first"), one
 * statement reads them as a `union all` of each part's first offset + limit rows (a top-N sort within the
 * part) under the page's limit: PostgreSQL's Append runs its parts in the order written and the limit
 * stops it once the page is full, so the parts further out are never read (decision 018, "Nearby first").
 */
export function orderedListed(
  db: Db,
  listed: ListedProfiles,
  options: {
    where?: SQL | undefined;
    parts?: readonly ListPart[] | null;
    offset?: number;
    limit: number;
    mainThumb: SQL<string | null>;
    columns?: SQL | undefined;
  },
): Promise<TeaserRow[]> {
  const { where, parts, offset = 0, limit } = options;
  const lent = sql`${options.mainThumb} as "main_thumb"${options.columns ? sql`, ${options.columns}` : sql``}`;
  if (!parts) {
    return namedRows<TeaserRow>(
      db,
      sql`select ${CARD_COLUMNS}, ${lent} from ${listed.from}
          ${where ? sql`where ${where}` : sql``}
          order by ${NEWEST_ORDER} limit ${limit} offset ${offset}`,
    );
  }
  const reads = parts.map((part) => {
    const condition = and(where, part.where);
    return sql`(select * from ${listed.from} ${condition ? sql`where ${condition}` : sql``} order by ${part.order} limit ${offset + limit})`;
  });
  // The outer alias is the subquery's own ("listed"), so the lent columns name its rows as they do above.
  return namedRows<TeaserRow>(
    db,
    sql`select ${CARD_COLUMNS}, ${lent} from (${sql.join(reads, sql` union all `)}) as "listed" limit ${limit} offset ${offset}`,
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
