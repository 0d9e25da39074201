/*
 * The site's one service worker (decision 026), served as /sw.js by ./routes.ts, which puts
 * `const VERSION = "…", OFFLINE_URL = "/offline", ICON = "…", PUSH_VERSION = 2;` in front of this file
 * (PUSH_VERSION: spec §9's push service-worker version, the contract's PUSH_WORKER_VERSION).
 *
 * - Precaches the offline page; serves it when a navigation fails for want of a network, nothing else.
 *   Navigations go to the network first (with navigation preload); nothing the site answers is cached:
 *   no API answer, member data or photo is ever stored by this worker (privacy).
 * - A new version (another VERSION) takes over at once: skipWaiting at install, clients.claim at activate,
 *   and the old versions' caches are deleted.
 * - Push (issue #28; the payload is the contract's pushPayloadSchema, already in the member's language):
 *   shows the notification (one per tag; a new message in a conversation alerts again) and posts
 *   {type: "NEW_PUSH_MESSAGE", payload} to every open page of the site, which reloads its chats or likes.
 * - A click closes it, tells the server (POST /api/push-click.php: no e-mail follows), then focuses an
 *   open page of the site and posts {type: "NEW_PUSH_CLICK", payload} to it (the page opens payload.url),
 *   or opens payload.url in a new window.
 */
const CACHE_PREFIX = "offline-";
const CACHE = `${CACHE_PREFIX}${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Fresh from the server, in the language of the locale cookie (the page switches by the cookie too).
      await cache.add(new Request(OFFLINE_URL, { cache: "reload", credentials: "same-origin" }));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keys = await caches.keys();
      await Promise.all(keys.filter((key) => key.startsWith(CACHE_PREFIX) && key !== CACHE).map((key) => caches.delete(key)));
      // The navigation request starts while the worker boots, so the worker costs no time.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  // Only page navigations: every other request (API, photos, assets) goes its ordinary way, untouched.
  if (request.mode !== "navigate" || request.method !== "GET") return;
  event.respondWith(
    (async () => {
      try {
        const preloaded = await event.preloadResponse;
        if (preloaded) return preloaded;
        return await fetch(request);
      } catch {
        // No network (or the server unreachable): the offline page, under the address that was asked for.
        const offline = await caches.match(OFFLINE_URL, { cacheName: CACHE });
        return offline ?? Response.error();
      }
    })(),
  );
});

/** `url` as an address of this site, or the home page: a notification never sends anyone elsewhere. */
function siteUrl(url) {
  try {
    const resolved = new URL(typeof url === "string" ? url : "/", self.location.origin);
    return resolved.origin === self.location.origin ? resolved.href : new URL("/", self.location.origin).href;
  } catch {
    return new URL("/", self.location.origin).href;
  }
}

/** The payload's fields the worker uses, each checked: a malformed push still shows something. */
function pushPayload(raw) {
  const payload = raw && typeof raw === "object" ? raw : {};
  const text = (value, fallback) => (typeof value === "string" ? value : fallback);
  const result = {
    kind: ["message", "like", "match"].includes(payload.kind) ? payload.kind : "message",
    title: text(payload.title, "") || self.location.hostname,
    body: text(payload.body, ""),
    // A path of this site ("//host" would be another site).
    url: typeof payload.url === "string" && /^\/(?![/\\])/.test(payload.url) ? payload.url : "/",
    tag: text(payload.tag, ""),
  };
  if (typeof payload.icon === "string") result.icon = payload.icon;
  if (Number.isInteger(payload.conversation_id)) result.conversation_id = payload.conversation_id;
  if (Number.isInteger(payload.notification_id)) result.notification_id = payload.notification_id;
  return result;
}

/** The open pages of this site (also those not yet controlled by this worker). */
function siteWindows() {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true });
}

self.addEventListener("push", (event) => {
  let raw = {};
  try {
    raw = event.data ? event.data.json() : {};
  } catch {
    raw = { body: event.data ? event.data.text() : "" };
  }
  const payload = pushPayload(raw);
  event.waitUntil(
    (async () => {
      await self.registration.showNotification(payload.title, {
        body: payload.body,
        icon: payload.icon ?? ICON,
        ...(payload.tag ? { tag: payload.tag, renotify: payload.kind === "message" } : {}),
        data: { ...payload, url: siteUrl(payload.url), path: payload.url },
      });
      for (const client of await siteWindows()) client.postMessage({ type: "NEW_PUSH_MESSAGE", payload });
    })(),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data ?? {};
  const url = siteUrl(data.url);
  const { url: _absolute, path, ...rest } = data;
  const payload = pushPayload({ ...rest, url: typeof path === "string" ? path : new URL(url).pathname });
  event.waitUntil(
    (async () => {
      if (payload.notification_id !== undefined) {
        try {
          await fetch("/api/push-click.php", {
            method: "POST",
            credentials: "same-origin",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify({ notification_id: payload.notification_id }),
          });
        } catch {
          // Offline: the click still opens the page (the server may then send the e-mail as well).
        }
      }
      const windows = await siteWindows();
      const same = windows.find((client) => client.url === url);
      const open = same ?? windows.find((client) => client.focused) ?? windows[0];
      if (!open) return self.clients.openWindow(url);
      let target = open;
      try {
        target = (await open.focus()) ?? open;
      } catch {
        // Not allowed to focus (no user activation left): the tab still goes to the page, for when the
        // member switches to it; opening another window would be refused for the same reason.
      }
      // The page navigates itself (React Router), keeping its state and its live connection.
      if (target.url !== url) target.postMessage({ type: "NEW_PUSH_CLICK", payload });
      return target;
    })(),
  );
});
