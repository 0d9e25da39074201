import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it, vi } from "vitest";
import { patchRouterReloads, ROUTER_RELOAD_HOOK } from "../../router-reloads";
import { installRouterReloadHook, isChunkLoadError, reloadForChunkError } from "./chunk-reload";

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

/** React Router's route-module loader as the build ships it (router-reloads.ts patched), to run here. */
function builtLoadRouteModule() {
  const file = createRequire(import.meta.url)
    .resolve("react-router")
    .replace(/index\.js$/, "lib/dom/ssr/routeModules.js");
  const patched = patchRouterReloads(readFileSync(file, "utf8"), file);
  if (patched === null) throw new Error("routeModules.js was not patched");
  // Run as the browser would: its dynamic import of the missing chunk fails.
  return new Function(
    `${patched.replace(/export \{[^}]*\};?/, "").replaceAll("import.meta.hot", "undefined")}\nreturn loadRouteModule;`,
  )() as (route: { id: string; module: string }, cache: Record<string, unknown>) => Promise<unknown>;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("React Router's own reload after a failed route module (issue #29)", () => {
  it("goes through the once-per-60 s rule: a second failure within 60 s shows the error instead of reloading", async () => {
    const loadRouteModule = builtLoadRouteModule();
    let reloads = 0;
    const storage = memoryStorage();
    let now = 1_000_000;
    const target: Record<string, unknown> = {};
    installRouterReloadHook(target);
    expect(typeof target[ROUTER_RELOAD_HOOK]).toBe("function");
    // The hook as installed, with the test's clock, storage and reload.
    const global = window as unknown as Record<string, unknown>;
    global[ROUTER_RELOAD_HOOK] = () => reloadForChunkError(now, storage, () => void reloads++);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const outcome = (promise: Promise<unknown>) =>
      Promise.race([
        promise.then(
          () => "loaded",
          () => "failed",
        ),
        wait(50).then(() => "pending (reloading)"),
      ]);
    try {
      const missing = { id: "routes/likes", module: "/assets/likes-gone.js" };
      // The first failure reloads; the navigation waits for the page to go.
      expect([await outcome(loadRouteModule(missing, {})), reloads]).toEqual(["pending (reloading)", 1]);
      // Ten seconds later the reloaded page fails again: no second reload, the error reaches the error page.
      now += 10_000;
      expect([await outcome(loadRouteModule(missing, {})), reloads]).toEqual(["failed", 1]);
      // 60 s after the reload a failure may reload again.
      now += 50_000;
      expect([await outcome(loadRouteModule(missing, {})), reloads]).toEqual(["pending (reloading)", 2]);
    } finally {
      errors.mockRestore();
      delete global[ROUTER_RELOAD_HOOK];
    }
  });
});
