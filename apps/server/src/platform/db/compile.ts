import { Column, is, Name, Param, Placeholder, SQL, StringChunk, Table } from "drizzle-orm";

/** What drizzle's dialects answer for a statement: its text and its parameters in order. */
export interface CompiledQuery {
  sql: string;
  params: unknown[];
}

/** A compilation in progress: with `segments`, a fragment's (text cut at each parameter). */
interface Output extends CompiledQuery {
  segments?: string[];
}

/**
 * A piece of SQL compiled once (compileFragment): its text cut at its parameters, each a value or a
 * named placeholder (`sql.placeholder`) that `bind` fills for each use. For the hot statements whose
 * conditions are built by nested helpers of other modules (a chat send's visibility condition): the
 * tree is built and walked once instead of on every send.
 */
export class CompiledFragment<K extends string = string> {
  constructor(
    readonly segments: readonly string[],
    readonly params: readonly unknown[],
  ) {}

  /** This fragment with its placeholders' values, to put into any `sql` template. */
  bind(values: Readonly<Record<K, string | number | boolean | null>>): SQL {
    return new SQL([new BoundFragment(this, values) as unknown as StringChunk]);
  }
}

/** A fragment and its values, as a chunk of a template (compiled by plainSqlCompiler, or by drizzle through getSQL). */
class BoundFragment {
  constructor(
    readonly fragment: CompiledFragment,
    readonly values: Readonly<Record<string, unknown>>,
  ) {}

  valueOf(param: unknown): unknown {
    if (!(param instanceof Placeholder)) return param;
    if (!(param.name in this.values)) throw new Error(`no value for placeholder ${param.name}`);
    return this.values[param.name];
  }

  /** drizzle's view of it (when a statement falls back to drizzle's compiler): the same text and values. */
  getSQL(): SQL {
    const { segments, params } = this.fragment;
    const chunks: unknown[] = [];
    params.forEach((param, i) => {
      chunks.push(new StringChunk(segments[i] as string), this.valueOf(param));
    });
    chunks.push(new StringChunk(segments[params.length] as string));
    return new SQL(chunks as StringChunk[]);
  }

  shouldOmitSQLParens(): boolean {
    return true;
  }
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
export function plainSqlCompiler(dialect: DialectLike): {
  (statement: SQL): CompiledQuery | undefined;
  fragment(piece: SQL): CompiledFragment;
} {
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
  const appendChunk = (chunk: unknown, out: Output): boolean => {
    if (chunk instanceof StringChunk) {
      const parts = chunk.value;
      out.sql += parts.length === 1 ? (parts[0] as string) : parts.join("");
    } else if (chunk instanceof SQL) {
      // Inlined parameters (`.inlineParams()`) become literals in drizzle: left to it.
      if ((chunk as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
      for (const inner of chunk.queryChunks) if (!appendChunk(inner, out)) return false;
    } else if (chunk instanceof BoundFragment) {
      const { segments, params } = chunk.fragment;
      for (let i = 0; i < params.length; i++) {
        out.sql += segments[i] as string;
        addParam(chunk.valueOf(params[i]), out);
      }
      out.sql += segments[params.length] as string;
    } else if (chunk === undefined) {
      // drizzle writes nothing for an undefined chunk.
    } else if (chunk === null || (typeof chunk !== "object" && typeof chunk !== "function") || chunk instanceof Date) {
      // A value: drizzle's last case, a parameter as it is (pg and PGlite serialise it).
      addParam(chunk, out);
    } else if (chunk instanceof Placeholder && out.segments) {
      // A fragment's placeholder: a parameter that each use fills.
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
    } else if (chunk instanceof Table || chunk instanceof Column) {
      // (An object instanceof misses, if any, goes to drizzle below: never a wrong text.)
      const text = nameOf(chunk);
      if (text === undefined) return false;
      out.sql += text;
    } else {
      return false;
    }
    return true;
  };
  const addParam = (value: unknown, out: Output) => {
    out.params.push(value);
    if (out.segments) {
      out.segments.push(out.sql);
      out.sql = "";
    } else {
      out.sql += `$${out.params.length}`;
    }
  };
  const compile = (statement: SQL) => {
    const out: Output = { sql: "", params: [] };
    return appendChunk(statement, out) ? out : undefined;
  };
  compile.fragment = (piece: SQL): CompiledFragment => {
    const out: Output = { sql: "", params: [], segments: [] };
    if (!appendChunk(piece, out) || !out.segments) throw new Error("a fragment holds only what plainSqlCompiler compiles");
    out.segments.push(out.sql);
    return new CompiledFragment(out.segments, out.params);
  };
  return compile;
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
  fragmentCompilers.set(dialect, compile.fragment);
}

/** Each patched dialect's fragment compiler (its plainSqlCompiler over drizzle's own sqlToQuery). */
const fragmentCompilers = new WeakMap<DialectLike, (piece: SQL) => CompiledFragment>();

/**
 * Compiles `piece` (an `sql` template whose per-use values are `sql.placeholder`s) once for `db`'s
 * dialect; `bind` then fills it for each use. The builder must not branch on a placeholder's value
 * (it has none), which is why only the placeholders' names are given to it.
 */
export function compileFragment<K extends string>(
  db: object,
  piece: (placeholder: (name: K) => Placeholder<K>) => SQL,
): CompiledFragment<K> {
  const dialect = (db as { dialect?: DialectLike }).dialect;
  if (!dialect) throw new Error("drizzle's dialect is not where it was");
  let compile = fragmentCompilers.get(dialect);
  if (!compile) {
    // A database not opened by openDatabase: its dialect is drizzle's own.
    compile = plainSqlCompiler(dialect).fragment;
    fragmentCompilers.set(dialect, compile);
  }
  return compile(piece((name) => new Placeholder(name))) as CompiledFragment<K>;
}

/**
 * A fragment as SQL text with no parameters, for the body of a server-side function: each placeholder
 * becomes the expression `names` gives it (the function's argument or variable), each other parameter
 * (the constants of the helpers that built it) a literal.
 */
export function fragmentText(fragment: CompiledFragment, names: Readonly<Record<string, string>>): string {
  let text = "";
  fragment.params.forEach((param, i) => {
    text += fragment.segments[i] as string;
    if (param instanceof Placeholder) {
      const name = names[param.name];
      if (name === undefined) throw new Error(`no expression for placeholder ${param.name}`);
      text += name;
    } else {
      text += literal(param);
    }
  });
  return text + (fragment.segments[fragment.params.length] as string);
}

/** A constant as an SQL literal (standard_conforming_strings, PostgreSQL's default since 9.1). */
function literal(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`no literal for ${typeof value}`);
}
