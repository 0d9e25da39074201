import { Column, is, Name, Param, Placeholder, SQL, StringChunk, Table } from "drizzle-orm";

/** What drizzle's dialects answer for a statement: its text and its parameters in order. */
export interface CompiledQuery {
  sql: string;
  params: unknown[];
}

/** The part of drizzle's PgDialect this uses and replaces (instance methods, the same on both drivers). */
export interface DialectLike {
  sqlToQuery(statement: SQL, invokeSource?: unknown): CompiledQuery;
  escapeName(name: string): string;
}

/**
 * A compiler for statements written as `sql` templates: text, nested templates, values, and the names
 * of tables, columns and identifiers in them. It answers their text with `$n` placeholders and their
 * parameters exactly as drizzle's `sqlToQuery` would, or undefined when the tree holds anything else
 * (placeholders, subqueries, aliased fields, inlined parameters, objects as values), which drizzle then
 * compiles as before. The query builder's statements are trees of the same kinds (with its values as
 * encoded parameters), so most of them take this path too.
 *
 * Why: drizzle tests each chunk against a dozen entity kinds (walking the chunk's prototype chain for
 * each) and merges arrays of partial results at every level; a chat send's statements, whose
 * visibility conditions nest a few dozen templates, cost about 180 µs per send to compile that way
 * (decision 020, "Write cost"). This walk does the same in one pass. A table's or a column's text does
 * not depend on where it stands (outside DDL, which passes an `invokeSource` and is left to drizzle),
 * so it is compiled by drizzle once per object and remembered.
 */
export function plainSqlCompiler(dialect: DialectLike): (statement: SQL) => CompiledQuery | undefined {
  const compileOne = dialect.sqlToQuery.bind(dialect);
  const names = new WeakMap<object, string>();
  const nameOf = (chunk: object): string | undefined => {
    let text = names.get(chunk);
    if (text === undefined) {
      const compiled = compileOne(new SQL([chunk as Table]));
      if (compiled.params.length > 0) return undefined;
      text = compiled.sql;
      names.set(chunk, text);
    }
    return text;
  };
  const appendChunk = (chunk: unknown, out: CompiledQuery): boolean => {
    if (chunk instanceof StringChunk) {
      const parts = chunk.value;
      out.sql += parts.length === 1 ? (parts[0] as string) : parts.join("");
    } else if (chunk instanceof SQL) {
      // Inlined parameters (`.inlineParams()`) become literals in drizzle: left to it.
      if ((chunk as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
      for (const inner of chunk.queryChunks) if (!appendChunk(inner, out)) return false;
    } else if (chunk === undefined) {
      // drizzle writes nothing for an undefined chunk.
    } else if (chunk === null || (typeof chunk !== "object" && typeof chunk !== "function") || chunk instanceof Date) {
      // A value: drizzle's last case, a parameter as it is (pg and PGlite serialise it).
      addParam(chunk, out);
    } else if (chunk instanceof Param) {
      // The query builder's values, mapped by their column's encoder (unless a placeholder or SQL).
      if (is(chunk.value, Placeholder)) return false;
      const mapped = chunk.value === null ? null : chunk.encoder.mapToDriverValue(chunk.value);
      if (is(mapped, SQL)) return false;
      addParam(mapped, out);
    } else if (Array.isArray(chunk)) {
      // drizzle writes an array as a parenthesised list of its items.
      out.sql += "(";
      for (let i = 0; i < chunk.length; i++) {
        if (i > 0) out.sql += ", ";
        if (!appendChunk(chunk[i], out)) return false;
      }
      out.sql += ")";
    } else if (chunk instanceof Name) {
      out.sql += dialect.escapeName(chunk.value);
    } else if (is(chunk, Table) || is(chunk, Column)) {
      const text = nameOf(chunk);
      if (text === undefined) return false;
      out.sql += text;
    } else {
      return false;
    }
    return true;
  };
  const addParam = (value: unknown, out: CompiledQuery) => {
    out.params.push(value);
    out.sql += `$${out.params.length}`;
  };
  return (statement) => {
    const out: CompiledQuery = { sql: "", params: [] };
    return appendChunk(statement, out) ? out : undefined;
  };
}

/**
 * Makes `db`'s dialect compile templates with plainSqlCompiler and everything else as before. The
 * dialect object is shared by the database handle, its session and every transaction, so every
 * statement of both drivers goes through it; the query builder's statements (subqueries, encoded
 * parameters) mostly fall through to drizzle. Tested against drizzle's own output (compile.test.ts).
 */
export function compileTemplatesFast(db: object): void {
  const dialect = (db as { dialect?: DialectLike }).dialect;
  if (!dialect || typeof dialect.sqlToQuery !== "function" || typeof dialect.escapeName !== "function") {
    throw new Error("drizzle's dialect is not where it was");
  }
  const drizzleCompile = dialect.sqlToQuery.bind(dialect);
  const compile = plainSqlCompiler({ sqlToQuery: drizzleCompile, escapeName: dialect.escapeName.bind(dialect) });
  dialect.sqlToQuery = (statement, invokeSource) =>
    (invokeSource === undefined ? compile(statement) : undefined) ?? drizzleCompile(statement, invokeSource);
}
