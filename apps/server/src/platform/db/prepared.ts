import { createHash } from "node:crypto";
import type pg from "pg";

/** Statement names by text: hashing a long text on every call costs more than the look-up. */
const names = new Map<string, string>();
/**
 * Distinct texts given a name. Each pool connection keeps every statement it prepared for its
 * lifetime, so the number of names bounds that memory; past it, new texts run unnamed (planned on
 * every run, as before). The app has a few hundred statement shapes (which filters are set).
 */
export const MAX_NAMED_STATEMENTS = 2_000;

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < MAX_NAMED_STATEMENTS) {
    name = `q_${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

interface QueryConfigLike {
  text?: unknown;
  name?: unknown;
  values?: unknown[];
  submit?: unknown;
}

/**
 * Makes every statement with parameters that the pool's connections run a named prepared statement,
 * its name derived from its text: a connection parses it once and PostgreSQL may keep its plan (after
 * five runs it compares a generic plan with the custom ones and keeps the generic one only when it is
 * no worse), so a hot statement stops paying its planning on every run. Measured (decision 018): the
 * search's statements planned in 0.4–0.8 ms, as long as they ran; bench:search went from 528 to 823
 * req/s for a visitor. Statements without parameters (`begin`, `commit`, DDL) stay simple queries.
 * PGlite runs in-process and is left as it is.
 */
export function nameStatements(pool: pg.Pool): void {
  pool.on("connect", (client) => {
    // The class's query, looked up on each call (not bound once here), so that whoever wraps
    // pg.Client.prototype.query later still sees every statement (bench:chat counts a send's).
    const ownClass = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };
    const query = (...args: unknown[]) => ownClass.query.apply(client, args);
    (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      if (config && typeof config === "object") {
        const c = config as QueryConfigLike;
        const values = Array.isArray(rest[0]) ? rest[0] : c.values;
        if (typeof c.text === "string" && !c.name && typeof c.submit !== "function" && values && values.length > 0) {
          const name = nameOf(c.text);
          if (name) return query({ ...c, name }, ...rest);
        }
      }
      return query(config, ...rest);
    };
  });
}
