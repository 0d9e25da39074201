import type { ServerFrame } from "@app/contract";

/** The frames a connection starts with and keeps getting: checked here, without zod. */
export type FirstFrame = Extract<ServerFrame, { type: "hello" | "pong" | "resync" }>;

const isInt = (value: unknown): value is number => Number.isSafeInteger(value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Issue #29: the socket's `hello`, `pong` and `resync` frames checked by hand, exactly as the contract's
 * `serverFrameSchema` does (tests hold the two together), so that a member's first screen opens its
 * connection without loading zod; any other frame (an event, a sent message's answer) is the schema's.
 * Returns the frame with the schema's keys only; null when it is not a valid frame of these types;
 * undefined when it is of another type, for the schema to parse.
 */
export function checkFirstFrame(raw: unknown): FirstFrame | null | undefined {
  if (!isRecord(raw)) return null;
  switch (raw.type) {
    case "hello": {
      const { node, user_id, seq, accepts } = raw;
      if (typeof node !== "string" || !(user_id === null || isInt(user_id)) || !isInt(seq)) return null;
      if (accepts === undefined) return { type: "hello", node, user_id, seq };
      if (!Array.isArray(accepts) || !accepts.every((type) => typeof type === "string")) return null;
      return { type: "hello", node, user_id, seq, accepts: [...accepts] };
    }
    case "pong":
      if (raw.id === undefined) return { type: "pong" };
      return typeof raw.id === "string" ? { type: "pong", id: raw.id } : null;
    case "resync":
      return isInt(raw.seq) ? { type: "resync", seq: raw.seq } : null;
    default:
      return undefined;
  }
}
