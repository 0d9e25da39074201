import { LIMITS } from "@app/contract";
import { ROUTER_RELOAD_HOOK } from "../../router-reloads";

/** When the page last reloaded for a missing chunk (session storage; START_SCRIPTS reads it too). */
export const CHUNK_RELOAD_KEY = "chunk-reload-at";

/**
 * "Loading chunk N failed" (webpack wording of the spec) and the browsers' wordings for dynamic imports
 * (START_SCRIPTS tests the same pattern before the app is loaded).
 */
export const CHUNK_LOAD_ERROR =
  /Loading chunk [\w-]+ failed|Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed/i;

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return CHUNK_LOAD_ERROR.test(message);
}

/**
 * Reloads the page after a failed chunk load, at most once per 60 s (spec §8), so that a deploy that
 * removed old chunks recovers without a reload loop. Returns whether it reloaded.
 */
export function reloadForChunkError(
  now = Date.now(),
  storage: Pick<Storage, "getItem" | "setItem"> = window.sessionStorage,
  reload: () => void = () => window.location.reload(),
): boolean {
  const last = Number(storage.getItem(CHUNK_RELOAD_KEY) ?? 0);
  if (now - last < LIMITS.chunkReloadIntervalMs) return false;
  storage.setItem(CHUNK_RELOAD_KEY, String(now));
  reload();
  return true;
}

/**
 * Makes React Router's own reloads (a route module that failed to load, a newer build met by route
 * discovery) ask the rule above first: the build routes them through this global (router-reloads.ts,
 * issue #29). Installed by the client entry before hydration.
 */
export function installRouterReloadHook(target: Record<string, unknown> = window as unknown as Record<string, unknown>): void {
  target[ROUTER_RELOAD_HOOK] = (reload?: () => void) =>
    reloadForChunkError(Date.now(), window.sessionStorage, reload ?? (() => window.location.reload()));
}

export function installChunkReload(): () => void {
  const onPreloadError = (event: Event) => {
    event.preventDefault();
    reloadForChunkError();
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    if (isChunkLoadError(event.reason)) reloadForChunkError();
  };
  const onError = (event: ErrorEvent) => {
    if (isChunkLoadError(event.error ?? event.message)) reloadForChunkError();
  };
  window.addEventListener("vite:preloadError", onPreloadError);
  window.addEventListener("unhandledrejection", onRejection);
  window.addEventListener("error", onError);
  return () => {
    window.removeEventListener("vite:preloadError", onPreloadError);
    window.removeEventListener("unhandledrejection", onRejection);
    window.removeEventListener("error", onError);
  };
}
