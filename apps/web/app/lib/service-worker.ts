import { APP } from "@app/contract";

/**
 * Registers the site's service worker (decision 026) once the page is interactive. Not in development
 * (Vite serves the modules; a worker there only gets in the way), and not where the browser refuses
 * workers: browser tests block them unless a test asks for them (e2e/playwright.config.ts). The worker
 * takes over new versions itself (skipWaiting, clients.claim): nothing to do here on an update.
 */
/** How the worker is registered, here and by START_SCRIPTS on a page without the app (decision 028). */
export const SERVICE_WORKER_OPTIONS: RegistrationOptions = { scope: "/", updateViaCache: "none" };

export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(APP.serviceWorkerPath, SERVICE_WORKER_OPTIONS).catch(() => {
    // Workers off (private mode, policy, a test): the site works the same without the offline page.
  });
}
