import { APP, type WorkerMessage } from "@app/contract";
import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";

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

type WorkerMessageListener = (message: WorkerMessage) => void;

/**
 * Spec §7: the push worker tells the open pages of a push that arrived (NEW_PUSH_MESSAGE) and of a
 * click on its notification (NEW_PUSH_CLICK). Each message is checked against the contract's schema,
 * which loads with the first message (decision 025); anything else is ignored. Returns the unsubscribe.
 */
export function onWorkerMessage(listener: WorkerMessageListener): () => void {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return () => {};
  let active = true;
  const receive = (event: MessageEvent) => {
    void import("./worker-messages").then(({ parseWorkerMessage }) => {
      const message = parseWorkerMessage(event.data);
      if (message && active) listener(message);
    });
  };
  const container = navigator.serviceWorker;
  container.addEventListener("message", receive);
  return () => {
    active = false;
    container.removeEventListener("message", receive);
  };
}

/** Runs `handler` for every message of the service worker (the latest handler is used). */
export function useWorkerMessage(handler: WorkerMessageListener): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => onWorkerMessage((message) => latest.current(message)), []);
}

/** NEW_PUSH_CLICK: the page the worker focused opens the notification's page (a path of this site). */
export function useWorkerClickNavigation(): void {
  const navigate = useNavigate();
  useWorkerMessage((message) => {
    const url = message.type === "NEW_PUSH_CLICK" ? message.payload.url : "";
    // A path of this site only ("//host" would leave it).
    if (/^\/(?![/\\])/.test(url)) void navigate(url);
  });
}
