import { serverFrameSchema } from "@app/contract";
import { describe, expect, it } from "vitest";
import { checkFirstFrame } from "./first-frames";

// Each frame type the hand check takes, valid and broken in every field the schema checks.
const samples: unknown[] = [
  { type: "hello", node: "n1", user_id: 7, seq: 12 },
  { type: "hello", node: "n1", user_id: null, seq: 0, accepts: ["resume", "ping", "send"] },
  { type: "hello", node: "n1", user_id: 7, seq: 12, accepts: [], extra: "dropped" },
  { type: "hello", node: 1, user_id: 7, seq: 12 },
  { type: "hello", user_id: 7, seq: 12 },
  { type: "hello", node: "n1", seq: 12 },
  { type: "hello", node: "n1", user_id: "7", seq: 12 },
  { type: "hello", node: "n1", user_id: 7.5, seq: 12 },
  { type: "hello", node: "n1", user_id: 7, seq: 1.5 },
  { type: "hello", node: "n1", user_id: 7, seq: 2 ** 60 },
  { type: "hello", node: "n1", user_id: 7, seq: null },
  { type: "hello", node: "n1", user_id: 7, seq: 12, accepts: "send" },
  { type: "hello", node: "n1", user_id: 7, seq: 12, accepts: ["send", 1] },
  { type: "hello", node: "n1", user_id: 7, seq: 12, accepts: null },
  { type: "pong" },
  { type: "pong", id: "p1" },
  { type: "pong", id: 1 },
  { type: "pong", id: null },
  { type: "resync", seq: 3 },
  { type: "resync", seq: "3" },
  { type: "resync" },
  { type: "resync", seq: -1.25 },
  null,
  "hello",
  ["hello"],
  42,
];

describe("the socket's first frames checked by hand", () => {
  it.each(samples.map((sample) => [JSON.stringify(sample), sample]))("agree with the contract's schema: %s", (_, sample) => {
    const schema = serverFrameSchema.safeParse(sample);
    expect(checkFirstFrame(sample)).toEqual(schema.success ? schema.data : null);
  });

  it("leave every other frame type to the schema", () => {
    for (const type of ["event", "sent", "send_failed", "error", "newer"]) {
      expect(checkFirstFrame({ type, seq: 1 })).toBeUndefined();
    }
  });
});
