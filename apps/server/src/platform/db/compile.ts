import { Column, is, Name, Param, Placeholder, SQL, StringChunk, Table } from "drizzle-orm";

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

/** A fragment and its values, as a chunk of a template (drizzle compiles it through getSQL). */
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

  /** drizzle's view of it: the fragment's text with this use's values. */
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

/** The part of drizzle's PgDialect a fragment is compiled with (the same on both drivers). */
interface DialectLike {
  sqlToQuery(statement: SQL): { sql: string; params: unknown[] };
  escapeName(name: string): string;
}

/** A fragment being compiled: the text since the last parameter, and the segments and parameters so far. */
interface Output {
  sql: string;
  params: unknown[];
  segments: string[];
}

/**
 * Compiles an `sql` template into a CompiledFragment: text, nested templates, values, placeholders,
 * bound fragments, and the names of tables, columns and identifiers in them, with the text and
 * parameters drizzle's `sqlToQuery` gives them (a table's or a column's text is drizzle's own, asked
 * once per object). Anything else (subqueries, aliased fields, inlined parameters, objects as values)
 * is refused: a fragment is a condition written as templates, compiled once.
 */
function fragmentCompiler(dialect: DialectLike): (piece: SQL) => CompiledFragment {
  const names = new WeakMap<object, string>();
  const nameOf = (chunk: object): string | undefined => {
    let text = names.get(chunk);
    if (text === undefined) {
      const compiled = dialect.sqlToQuery(new SQL([chunk as Table]));
      if (compiled.params.length > 0) return undefined;
      text = compiled.sql;
      names.set(chunk, text);
    }
    return text;
  };
  const addParam = (value: unknown, out: Output) => {
    out.params.push(value);
    out.segments.push(out.sql);
    out.sql = "";
  };
  const appendChunk = (chunk: unknown, out: Output): boolean => {
    if (chunk instanceof StringChunk) {
      out.sql += chunk.value.join("");
    } else if (chunk instanceof SQL) {
      // Inlined parameters (`.inlineParams()`) become literals in drizzle: not a fragment's.
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
    } else if (chunk instanceof Placeholder) {
      // A parameter that each use fills.
      addParam(chunk, out);
    } else if (chunk instanceof Param) {
      // A value mapped by its column's encoder (unless a placeholder or SQL).
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
      const text = nameOf(chunk);
      if (text === undefined) return false;
      out.sql += text;
    } else {
      return false;
    }
    return true;
  };
  return (piece) => {
    const out: Output = { sql: "", params: [], segments: [] };
    if (!appendChunk(piece, out)) throw new Error("a fragment holds only templates, values, placeholders and names");
    out.segments.push(out.sql);
    return new CompiledFragment(out.segments, out.params);
  };
}

/** Each dialect's fragment compiler (it remembers the text of the tables and columns it met). */
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
    compile = fragmentCompiler(dialect);
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
