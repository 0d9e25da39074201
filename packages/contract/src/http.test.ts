import { describe, expect, it } from "vitest";
import { INPUT_MAX_DEPTH, InputRefusedError, inputProblem, nestsDeeperThan, parseJsonInput } from "./http.ts";

/** `depth` arrays, one inside the other, around `inner`. */
const nested = (depth: number, inner: unknown = 1): unknown => {
  let value = inner;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe("the input rule (decision 032)", () => {
  it("allows ordinary Unicode, emoji (paired surrogates) included", () => {
    expect(inputProblem({ text: "Hoi 😀 Zoë, żółć, 你好 👩🏽‍💻", list: ["a", { b: "c" }] })).toBeNull();
  });

  it("finds a NUL or an unpaired surrogate in any string or key, with its path", () => {
    expect(inputProblem({ a: [{ b: "x\u0000" }] })).toEqual({ kind: "characters", path: ["a", 0, "b"] });
    expect(inputProblem({ message: { text: "hi \ud83d" } })).toEqual({ kind: "characters", path: ["message", "text"] });
    expect(inputProblem({ text: "\ude00 low half first" })).toEqual({ kind: "characters", path: ["text"] });
    expect(inputProblem({ text: "two highs \ud83d\ud83d" })).toEqual({ kind: "characters", path: ["text"] });
    expect(inputProblem({ "bad\u0000key": 1 })).toEqual({ kind: "characters", path: ["bad\u0000key"] });
    expect(inputProblem("\u0000")).toEqual({ kind: "characters", path: [] });
  });

  it("refuses nesting deeper than INPUT_MAX_DEPTH without recursion, whatever the depth", () => {
    expect(inputProblem(nested(INPUT_MAX_DEPTH))).toBeNull();
    expect(inputProblem(nested(INPUT_MAX_DEPTH + 1))).toEqual({ kind: "depth" });
    expect(inputProblem(nested(100_000))).toEqual({ kind: "depth" });
  });

  it("walks plain data only: a query string's bare dictionary yes, a Buffer or a class instance no", () => {
    const bare = Object.create(Object.create(null)) as Record<string, string>;
    bare.q = "\u0000";
    expect(inputProblem(bare)).toEqual({ kind: "characters", path: ["q"] });
    expect(inputProblem(Buffer.from([0, 0xd8]))).toBeNull();
    expect(
      inputProblem(
        new (class Stream {
          readonly text = "\u0000";
        })(),
      ),
    ).toBeNull();
  });

  it("measures JSON nesting before parsing, ignoring brackets inside strings", () => {
    expect(nestsDeeperThan("[".repeat(33) + "]".repeat(33), 32)).toBe(true);
    expect(nestsDeeperThan("[".repeat(32) + "]".repeat(32), 32)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ text: '[[[[ {{{{ \\" [[[[' }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: ["\\", [[1]]] }), 3)).toBe(true);
    expect(() => parseJsonInput("[".repeat(200_000) + "]".repeat(200_000))).toThrow(InputRefusedError);
    expect(parseJsonInput('{"a":["[[["]}')).toEqual({ a: ["[[["] });
    expect(() => parseJsonInput("{")).toThrow(SyntaxError);
  });
});
