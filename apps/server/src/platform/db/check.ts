import { type SQL, sql } from "drizzle-orm";

/**
 * A list of constant strings for a CHECK constraint (`status in (${inList(STATUSES)})`): the values are
 * the code's own enums, written into the migration, never request input.
 */
export const inList = (values: readonly string[]): SQL => sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(", "));
