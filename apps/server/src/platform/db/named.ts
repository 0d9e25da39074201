import { createHash } from "node:crypto";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./index.ts";

/** drizzle's own compiler, configured as openDatabase's handles are (no casing). */
const dialect = new PgDialect();

/** Statement names by text: hashing a long text on every call costs more than the look-up. */
const names = new Map<string, string>();

/**
 * Distinct texts given a name. Each pool connection keeps every statement it prepared for its lifetime,
 * so this bounds that memory; past it, new texts run unnamed (planned on every run). The named
 * statements differ by which filters are set: a search has a few dozen shapes in practice.
 */
export const MAX_STATEMENT_NAMES = 500;

/** A name for `text`, the same for the same text in every process (a hash), or undefined past the bound. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < MAX_STATEMENT_NAMES) {
    name = `q_${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The rows of `query`, compiled by drizzle and run as a named prepared statement through drizzle's
 * session (what a query builder's `.prepare(name)` does): node-postgres sends `{ name, text, values }`,
 * so each pool connection parses the statement once and PostgreSQL may keep its plan (after five runs it
 * keeps a generic plan when that is no worse than the custom ones). For hot statements whose planning
 * costs as much as their execution; the caller says why, with the measurement. PGlite ignores the name.
 * The results are the same as `db.execute(query)`'s (the same session, the same type parsers).
 */
export async function namedRows<T>(db: Pick<Db, "_">, query: SQL): Promise<T[]> {
  const compiled = dialect.sqlToQuery(query);
  const prepared = db._.session.prepareQuery(compiled, undefined, statementName(compiled.sql), false);
  return ((await prepared.execute()) as { rows: T[] }).rows;
}
