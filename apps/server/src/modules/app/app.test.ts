import { existsSync, readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { APP, LOCALE_CODES, PUSH_WORKER_VERSION, workerMessageSchema } from "@app/contract";
import { describe, expect, it } from "vitest";
import { webRoot } from "../../platform/http/ssr.ts";
import { t } from "../../platform/i18n.ts";
import { type TestApp, useTestApp } from "../../test/harness.ts";
import { shortName, workerScript } from "./routes.ts";

// With the production build (`npm run build`) the icons are served too and checked over HTTP.
const built = existsSync(`${webRoot}build/server/index.js`);
let app: TestApp;

useTestApp({ web: built ? "production" : false, listen: false, seed: { profiles: 0 } }, (env) => {
  app = env.app;
});

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("web app manifest", () => {
  it("is valid JSON of the manifest type with every member an install needs, in the visitor's language", async () => {
    const response = await app.server.inject({ url: "/manifest.webmanifest", headers: { cookie: "i18n_redirected=de" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/manifest\+json/);
    const manifest = response.json();
    const settings = await app.services.site.settingsFor("localhost", "de");
    expect(manifest).toMatchObject({
      name: settings.name,
      short_name: shortName(settings.name),
      description: settings.description,
      lang: "de",
      scope: "/",
      display: "standalone",
      theme_color: "#c2255c",
      background_color: "#f8f9fa",
    });
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    // The description follows the language: German differs from English.
    const english = (await app.server.inject({ url: "/manifest.webmanifest", headers: { "accept-language": "en" } })).json();
    expect(english.lang).toBe("en");
    expect(english.description).not.toBe(manifest.description);
    // start_url within scope, marked as an app launch.
    const start = new URL(manifest.start_url, "https://site.example/");
    expect(start.pathname.startsWith(manifest.scope)).toBe(true);
    expect(start.searchParams.get("source")).toBe("app");
    const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
    for (const [size, purpose] of [
      ["192x192", "any"],
      ["512x512", "any"],
      ["512x512", "maskable"],
    ]) {
      expect(icons.some((icon) => icon.sizes === size && icon.type === "image/png" && icon.purpose === purpose)).toBe(true);
    }
    expect(icons.some((icon) => icon.type === "image/svg+xml")).toBe(true);
  });

  it("names PNG icons that exist in the web app's files with the sizes it states", () => {
    for (const icon of [...APP.icons.filter((i) => i.type === "image/png"), { src: APP.appleTouchIcon, sizes: "180x180" }]) {
      const [width, height] = icon.sizes.split("x").map(Number);
      expect(pngSize(readFileSync(`${webRoot}public${icon.src}`)), icon.src).toEqual({ width, height });
    }
  });

  it.runIf(built)("serves every icon of the manifest and the apple touch icon as images of the stated sizes", async () => {
    const manifest = (await app.server.inject({ url: "/manifest.webmanifest" })).json();
    const icons = [
      ...(manifest.icons as { src: string; sizes: string; type: string }[]),
      { src: APP.appleTouchIcon, sizes: "180x180", type: "image/png" },
    ];
    for (const icon of icons) {
      const response = await app.server.inject({ url: icon.src });
      expect(response.statusCode, icon.src).toBe(200);
      expect(response.headers["content-type"], icon.src).toContain(icon.type);
      if (icon.type !== "image/png") continue;
      const [width, height] = icon.sizes.split("x").map(Number);
      expect(pngSize(response.rawPayload), icon.src).toEqual({ width, height });
    }
  });

  it.runIf(built)("is linked from every page, whose policy lets the manifest and the worker load", async () => {
    const page = await app.server.inject({ url: "/" });
    expect(page.body).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    expect(page.body).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png"');
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });
});

describe("service worker", () => {
  it("answers as JavaScript for the whole site, never from a cache, with a policy allowing this origin", async () => {
    const response = await app.server.inject({ url: "/sw.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(response.headers["service-worker-allowed"]).toBe("/");
    expect(String(response.headers["cache-control"])).toContain("no-cache");
    expect(String(response.headers["content-security-policy"])).toContain("default-src 'self'");
    expect(response.body).toMatch(/^const VERSION = "[0-9a-f]{16}"/);
    // Spec §9: the push service-worker version 2.
    expect(response.body.split("\n")[0]).toContain(`PUSH_VERSION = ${PUSH_WORKER_VERSION};`);
    expect(PUSH_WORKER_VERSION).toBe(2);
    for (const event of ["install", "activate", "fetch", "push", "notificationclick"]) {
      expect(response.body).toContain(`addEventListener("${event}"`);
    }
  });

  /** Runs the worker's script against stand-ins of the worker globals; returns its listeners and what it did. */
  function loadWorker(cached: Record<string, Response>, windows: FakeWindow[] = []) {
    const opened: string[] = [];
    const fetched: { url: string; init: RequestInit }[] = [];
    const listeners = new Map<string, (event: unknown) => void>();
    const shown: { title: string; options: NotificationOptions }[] = [];
    const stored: string[] = [];
    const self = {
      location: new URL("https://site.example/sw.js"),
      addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
      skipWaiting: async () => {},
      clients: {
        claim: async () => {},
        matchAll: async () => windows,
        openWindow: async (url: string) => void opened.push(url),
      },
      registration: {
        showNotification: async (title: string, options: NotificationOptions) => void shown.push({ title, options }),
      },
    };
    const caches = {
      open: async () => ({ add: async (request: Request) => void stored.push(new URL(request.url).pathname) }),
      match: async (url: string) => cached[url],
      keys: async () => [],
    };
    runInNewContext(workerScript("test"), {
      self,
      caches,
      Request: class {
        url: string;
        constructor(url: string) {
          this.url = new URL(url, "https://site.example/").href;
        }
      },
      URL,
      Response,
      fetch: async (url: string, init: RequestInit) => {
        fetched.push({ url, init });
        if (url.startsWith("/api/")) return new Response('{"ok":true}');
        return Promise.reject(new TypeError("Failed to fetch"));
      },
    });
    return { listeners, shown, stored, opened, fetched };
  }

  interface FakeWindow {
    url: string;
    focused: boolean;
    messages: unknown[];
    focus(): Promise<FakeWindow>;
    postMessage(message: unknown): void;
  }

  function fakeWindow(url: string): FakeWindow {
    const window: FakeWindow = {
      url,
      focused: false,
      messages: [],
      focus: async () => {
        window.focused = true;
        return window;
      },
      postMessage: (message: unknown) => void window.messages.push(message),
    };
    return window;
  }

  /** Sends a push with `payload` and waits for the worker to finish handling it. */
  function push(listeners: Map<string, (event: unknown) => void>, payload: unknown): Promise<void> {
    return new Promise<void>((resolve) =>
      listeners.get("push")?.({
        data: { json: () => payload, text: () => JSON.stringify(payload) },
        waitUntil: (work: Promise<unknown>) => void work.then(() => resolve()),
      }),
    );
  }

  /** Clicks a notification with `data` (what the push handler stored) and waits for the worker to finish. */
  function click(listeners: Map<string, (event: unknown) => void>, data: unknown): Promise<void> {
    return new Promise((resolve) => {
      let closed = false;
      listeners.get("notificationclick")?.({
        notification: {
          data,
          close: () => {
            closed = true;
          },
        },
        waitUntil: (work: Promise<unknown>) =>
          void work.then(() => {
            expect(closed).toBe(true);
            resolve();
          }),
      });
    });
  }

  const message = {
    kind: "message",
    title: "New message from Anna",
    body: "Hello there",
    url: "/chats/12",
    tag: "conversation-12",
    conversation_id: 12,
    notification_id: 99,
  };

  it("on a notification click, tells the server, then has an open page of the site open it, or opens a window", async () => {
    const target = "https://site.example/chats/12";
    const showing = fakeWindow(target);
    const other = fakeWindow("https://site.example/members");
    const first = loadWorker({}, [other, showing]);
    await push(first.listeners, message);
    const data = first.shown[0]?.options.data;
    await click(first.listeners, data);
    // Spec §7 push-click: the notification's record, so that no e-mail follows.
    expect(first.fetched).toHaveLength(1);
    expect(first.fetched[0]?.url).toBe("/api/push-click.php");
    expect(first.fetched[0]?.init).toMatchObject({ method: "POST", credentials: "same-origin" });
    expect(JSON.parse(String(first.fetched[0]?.init.body))).toEqual({ notification_id: 99 });
    // The window already showing the conversation is focused; nothing to navigate.
    expect(showing.focused).toBe(true);
    expect(other.focused).toBe(false);
    expect(showing.messages.filter((m) => (m as { type: string }).type === "NEW_PUSH_CLICK")).toEqual([]);
    expect(first.opened).toEqual([]);

    // Another page of the site: focused and told to open the conversation (the page navigates itself).
    const elsewhere = fakeWindow("https://site.example/members");
    const second = loadWorker({}, [elsewhere]);
    await click(second.listeners, data);
    expect(elsewhere.focused).toBe(true);
    expect(elsewhere.messages).toHaveLength(1);
    expect(workerMessageSchema.parse(elsewhere.messages[0])).toEqual({ type: "NEW_PUSH_CLICK", payload: message });
    expect(second.opened).toEqual([]);

    // No page open: a new window on the conversation. Without a notification id the server is not told.
    const third = loadWorker({}, []);
    const { notification_id: _, ...withoutId } = message;
    await push(third.listeners, withoutId);
    await click(third.listeners, third.shown[0]?.options.data);
    expect(third.opened).toEqual([target]);
    expect(third.fetched).toEqual([]);
  });

  it("serves the cached offline page for a navigation that fails, and leaves every other request alone", async () => {
    const offline = new Response("offline page");
    const { listeners } = loadWorker({ "/offline": offline });
    const fetchListener = listeners.get("fetch");
    let answer: Promise<Response> | undefined;
    fetchListener?.({
      request: { mode: "navigate", method: "GET" },
      preloadResponse: Promise.reject(new TypeError("offline")),
      respondWith: (response: Promise<Response>) => {
        answer = response;
      },
    });
    expect(await answer).toBe(offline);
    for (const request of [
      { mode: "cors", method: "GET" },
      { mode: "no-cors", method: "GET" },
      { mode: "navigate", method: "POST" },
    ]) {
      let responded = false;
      fetchListener?.({
        request,
        respondWith: () => {
          responded = true;
        },
      });
      expect(responded, JSON.stringify(request)).toBe(false);
    }
  });

  it("shows a push in the member's language, one per tag, and posts NEW_PUSH_MESSAGE to every open page", async () => {
    const pages = [fakeWindow("https://site.example/members"), fakeWindow("https://site.example/likes")];
    const { listeners, shown } = loadWorker({}, pages);
    await push(listeners, message);
    expect(shown[0]).toMatchObject({
      title: "New message from Anna",
      options: {
        body: "Hello there",
        tag: "conversation-12",
        renotify: true,
        data: { url: "https://site.example/chats/12", notification_id: 99 },
      },
    });
    for (const page of pages) {
      expect(page.messages).toHaveLength(1);
      expect(workerMessageSchema.parse(page.messages[0])).toEqual({ type: "NEW_PUSH_MESSAGE", payload: message });
    }
    // A like replaces the earlier like notification quietly (no renotify).
    await push(listeners, { kind: "like", title: "Someone likes you", body: "", url: "/likes/received", tag: "likes" });
    expect(shown[1]?.options).toMatchObject({ tag: "likes", renotify: false });
  });

  it("keeps a push's address on this site", async () => {
    const { listeners, shown } = loadWorker({});
    await push(listeners, { title: "Anna liked you", body: "Say hello", url: "/likes/received" });
    await push(listeners, { title: "Elsewhere", body: "", url: "https://evil.example/x" });
    await push(listeners, { title: "Elsewhere", body: "", url: "//evil.example/x" });
    expect(shown[0]).toMatchObject({
      title: "Anna liked you",
      options: { body: "Say hello", data: { url: "https://site.example/likes/received" } },
    });
    expect(shown[1]?.options.data).toMatchObject({ url: "https://site.example/" });
    expect(shown[2]?.options.data).toMatchObject({ url: "https://site.example/" });
  });
});

describe("offline page", () => {
  it("is in the visitor's language, carries every language for the cookie of the moment, and runs only its own script", async () => {
    const response = await app.server.inject({ url: "/offline", headers: { cookie: "i18n_redirected=pl" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).toContain('<html lang="pl">');
    expect(response.body).toContain(`<h1 id="offline-title">${t("pl", "app.offline_title")}</h1>`);
    const strings = JSON.parse(
      /<script type="application\/json" id="offline-strings">(.*?)<\/script>/s.exec(response.body)?.[1] ?? "{}",
    );
    expect(Object.keys(strings).sort()).toEqual([...LOCALE_CODES].sort());
    expect(strings.fr.retry).toBe(t("fr", "app.retry"));
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
  });
});
