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

/** The path of the first string in `input` that holds a NUL character, or null. */
export function findNul(input: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof input === "string") return input.includes("\u0000") ? path : null;
  if (Array.isArray(input)) {
    for (const [index, item] of input.entries()) {
      const found = findNul(item, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (input && typeof input === "object") {
    for (const [key, value] of Object.entries(input)) {
      const found = findNul(key, [...path, key]) ?? findNul(value, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Parses request input with a contract schema. A NUL character is refused in every string, whatever
 * the schema says: PostgreSQL cannot store it in text, and no form field has a use for it.
 */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const nul = findNul(input);
  if (nul) {
    throw new z.ZodError([{ code: "custom", path: nul.length ? nul : ["_"], message: "NUL character", input }]);
  }
  return schema.parse(input);
}
