import { describe, expect, it } from "vitest";
import { isChunkLoadError, reloadForChunkError } from "./chunk-reload";

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe("chunk-load failures (spec §8)", () => {
  it("recognises the failure messages", () => {
    expect(isChunkLoadError(new Error("Loading chunk 42 failed."))).toBe(true);
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /assets/x.js"))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
  });

  it("reloads at most once per 60 s", () => {
    const storage = memoryStorage();
    let reloads = 0;
    const reload = () => void reloads++;
    const t0 = 1_000_000;
    expect(reloadForChunkError(t0, storage, reload)).toBe(true);
    expect(reloadForChunkError(t0 + 59_999, storage, reload)).toBe(false);
    expect(reloadForChunkError(t0 + 60_000, storage, reload)).toBe(true);
    expect(reloads).toBe(2);
  });
});
