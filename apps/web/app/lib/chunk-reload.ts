import { LIMITS } from "@app/contract";

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
