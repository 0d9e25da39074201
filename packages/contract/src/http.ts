import { z } from "zod";

/**
 * Ids are PostgreSQL `integer` (serial) columns: a larger number can name nothing, and passing one to
 * the database fails the query. Every id that comes from a request is bounded here, so such a request
 * answers 404 or 422 instead of reaching SQL.
 */
export const ID_MAX = 2_147_483_647;
export const idSchema = z.number().int().positive().max(ID_MAX);
/** An id in a query string (`?id=12`). */
export const idQueryValueSchema = z.coerce.number().int().positive().max(ID_MAX);

/** An optional whole number in a query string: empty or absent is undefined, else within [min, max]. */
export const optionalInt = (min: number, max: number) =>
  z.preprocess((v) => (v === "" || v === undefined ? undefined : v), z.coerce.number().int().min(min).max(max).optional());

/** A route parameter that is an id (`/members/{id}`): the number, or null when it cannot name a row. */
export function parseIdParam(value: string | undefined): number | null {
  if (!value || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= ID_MAX ? id : null;
}

/**
 * One input rule for every entry point (issue #25, decision 032): JSON and form bodies, query strings,
 * path parameters, provider callbacks and WebSocket frames. PostgreSQL stores neither a NUL character
 * in text nor a lone UTF-16 surrogate in json (`"hi \ud83d"` fails the insert), and no field has a use
 * for either; an emoji is a *pair* of surrogates and stays allowed.
 */
const UNUSABLE_CHARACTER = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Deeper nesting is refused before anything walks it: no request of the contract nests more than a few
 * levels, and a recursive walk (ours once, zod's still) over `[`×8000 overflowed the stack after seconds.
 */
export const INPUT_MAX_DEPTH = 32;

/**
 * Whether JSON text nests deeper than `max` arrays and objects, found by one pass over the text before
 * it is parsed: `JSON.parse` itself does not overflow, but building 200,000 nested arrays (400 KB, well
 * under the body limit) took it half a second of the event loop; this scan takes microseconds.
 */
export function nestsDeeperThan(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** What the input rule refuses: a string with an unusable character (at `path`), or too deep a nesting. */
export type InputProblem = { kind: "characters"; path: (string | number)[] } | { kind: "depth" };

/** Whether a string holds a NUL character or a UTF-16 surrogate without its other half. */
export const hasUnusableCharacter = (text: string): boolean => UNUSABLE_CHARACTER.test(text);

interface Visit {
  value: object;
  depth: number;
  key: string | number;
  parent: Visit | null;
}

const pathOf = (visit: Visit | null, last: string | number): (string | number)[] => {
  const path = [last];
  for (let at = visit; at?.parent; at = at.parent) path.unshift(at.key);
  return path;
};

/**
 * Plain data only (parsed JSON, forms, query strings, route parameters), never a stream or a Buffer:
 * an array, or an object whose prototype is Object's, null, or a bare dictionary's (fast-querystring
 * makes its objects that way).
 */
const isPlainData = (value: object): boolean => {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
};

/**
 * The first problem of request input under the input rule, or null. The walk keeps its own stack (no
 * recursion, whatever the depth) and stops at INPUT_MAX_DEPTH, so its cost is bounded by the body limit.
 */
export function inputProblem(input: unknown): InputProblem | null {
  if (typeof input === "string") return hasUnusableCharacter(input) ? { kind: "characters", path: [] } : null;
  if (!input || typeof input !== "object" || !isPlainData(input)) return null;
  const stack: Visit[] = [{ value: input, depth: 1, key: "", parent: null }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value } = visit;
    const entries: [string | number, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
    for (const [key, item] of entries) {
      if (typeof key === "string" && hasUnusableCharacter(key)) return { kind: "characters", path: pathOf(visit, key) };
      if (typeof item === "string") {
        if (hasUnusableCharacter(item)) return { kind: "characters", path: pathOf(visit, key) };
      } else if (item && typeof item === "object" && isPlainData(item)) {
        if (visit.depth >= INPUT_MAX_DEPTH) return { kind: "depth" };
        stack.push({ value: item, depth: visit.depth + 1, key, parent: visit });
      }
    }
  }
  return null;
}

/**
 * Request input refused by the input rule. The server's error handler answers it 400 with a translated
 * field error (`invalid_input`) or `too_deep`; a socket answers its error frame.
 */
export class InputRefusedError extends Error {
  constructor(readonly problem: InputProblem) {
    super(problem.kind === "depth" ? "input nested too deeply" : `unusable character at ${problem.path.join(".") || "_"}`);
    this.name = "InputRefusedError";
  }
}

/**
 * JSON text of a request (a socket frame, a provider callback), parsed only when it nests no deeper
 * than INPUT_MAX_DEPTH (else InputRefusedError); a SyntaxError when it is not JSON.
 */
export function parseJsonInput(text: string): unknown {
  if (nestsDeeperThan(text, INPUT_MAX_DEPTH)) throw new InputRefusedError({ kind: "depth" });
  return JSON.parse(text);
}

/** Throws InputRefusedError when `input` breaks the input rule (see inputProblem). */
export function assertUsableInput(input: unknown): void {
  const problem = inputProblem(input);
  if (problem) throw new InputRefusedError(problem);
}

/**
 * Parses request input with a contract schema, after the input rule (the HTTP hook has usually applied
 * it already; multipart fields come here first).
 */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  assertUsableInput(input);
  return schema.parse(input);
}
