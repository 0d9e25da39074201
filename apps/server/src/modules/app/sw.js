/*
 * The site's one service worker (decision 026), served as /sw.js by ./routes.ts, which puts
 * `const VERSION = "…", OFFLINE_URL = "/offline", ICON = "…";` in front of this file.
 *
 * - Precaches the offline page; serves it when a navigation fails for want of a network, nothing else.
 *   Navigations go to the network first (with navigation preload); nothing the site answers is cached:
 *   no API answer, member data or photo is ever stored by this worker (privacy).
 * - A new version (another VERSION) takes over at once: skipWaiting at install, clients.claim at activate,
 *   and the old versions' caches are deleted.
 * - Push: shows the notification of the payload {title, body, url}; a click focuses (or opens) url.
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

self.addEventListener("push", (event) => {
  let payload = {};
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = { body: event.data ? event.data.text() : "" };
  }
  const title = typeof payload.title === "string" && payload.title ? payload.title : self.location.hostname;
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof payload.body === "string" ? payload.body : "",
      icon: ICON,
      data: { url: siteUrl(payload.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = siteUrl(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = windows.find((client) => client.url === url);
      if (same) return same.focus();
      const other = windows.find((client) => "navigate" in client);
      if (other) {
        try {
          const focused = await other.focus();
          const navigated = await focused.navigate(url);
          if (navigated) return navigated;
        } catch {
          // An uncontrolled window cannot be navigated by the worker: open a new one instead.
        }
      }
      return self.clients.openWindow(url);
    })(),
  );
});
