// @vitest-environment node
import { JSDOM, VirtualConsole } from "jsdom";
import { describe, expect, it } from "vitest";
import { DEFERRED_MODULE_TYPE, DEFERRED_PRELOAD_REL, PRELOAD_BATCH, START_APP_GLOBAL, startScripts } from "./deferred-scripts";
import { hideDismissedScript } from "./dismissals";
import { SMARTPHONE_QUERY } from "./media";
import { MESSAGES_REL } from "./messages";

/**
 * The inline scripts run in a page of their own (a fresh JSDOM per test): they register listeners on
 * the document, which a shared test document would keep.
 */
function page(options: { intent: boolean; smartphone?: boolean; body?: string; head?: string }) {
  // jsdom cannot navigate: a reload shows up as its "not implemented" error, collected here.
  const jsdomErrors: string[] = [];
  const virtualConsole = new VirtualConsole();
  virtualConsole.on("jsdomError", (error: Error) => jsdomErrors.push(error.message));
  const dom = new JSDOM(
    `<!DOCTYPE html><html${options.intent ? ' data-start="intent"' : ""}><head>${options.head ?? ""}` +
      `<link rel="${MESSAGES_REL}" href="/i18n/en?v=1"><link rel="${DEFERRED_PRELOAD_REL}" href="/assets/entry.client-A.js" nonce="n"></head>` +
      `<body>${options.body ?? ""}<script type="${DEFERRED_MODULE_TYPE}" nonce="n">import "/assets/manifest-B.js";</script></body></html>`,
    { runScripts: "outside-only", url: "https://site.test/", virtualConsole },
  );
  const { window } = dom;
  const fetched: string[] = [];
  const registered: string[] = [];
  Object.defineProperty(window.navigator, "serviceWorker", {
    value: {
      register: (path: string) => {
        registered.push(path);
        return Promise.resolve();
      },
    },
  });
  Object.assign(window, {
    fetch: (url: string) => {
      fetched.push(String(url));
      return new Promise(() => {});
    },
    matchMedia: (query: string) => ({ matches: options.smartphone === true && query.includes("max-width") }),
  });
  window.eval(startScripts(SMARTPHONE_QUERY, "/sw.js"));
  const document = window.document;
  return {
    window,
    document,
    fetched,
    registered,
    jsdomErrors,
    started: () => document.querySelector('script[type="module"]') !== null,
    hydrate: async () => {
      document.documentElement.dataset.hydrated = "true";
      await new Promise((resolve) => window.setTimeout(resolve, 0));
    },
    fire: (target: Element, type: string) => {
      const event = new window.Event(type, { bubbles: true, cancelable: true });
      target.dispatchEvent(event);
      return event;
    },
  };
}

const BODY =
  '<p id="text">Read me</p><a id="link" href="/pages/terms">Terms</a><button id="button" type="button">Menu</button>' +
  '<a id="signup" href="/signup" data-needs-app="desktop">Sign up</a>' +
  '<div data-without-app=""><button id="enter" type="button">Enter</button></div>';

describe("START_SCRIPTS on a page that loads the app on intent (decision 028)", () => {
  it("loads nothing while the visitor only reads, follows links and uses controls that work without the app", () => {
    const p = page({ intent: true, body: BODY });
    for (const id of ["text", "link", "enter"]) {
      const target = p.document.getElementById(id) as Element;
      for (const type of ["pointerover", "pointerdown", "touchstart", "focusin"]) p.fire(target, type);
    }
    const link = p.fire(p.document.getElementById("link") as Element, "click");
    expect(link.defaultPrevented).toBe(false);
    expect(p.started()).toBe(false);
    expect(p.fetched).toEqual([]);
    expect(p.document.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
  });

  it.each(["pointerover", "pointerdown", "touchstart", "focusin"])("starts the app once when %s reaches a control", (type) => {
    const p = page({ intent: true, body: BODY });
    p.fire(p.document.getElementById("button") as Element, type);
    p.fire(p.document.getElementById("signup") as Element, type);
    expect(p.started()).toBe(true);
    expect(p.document.querySelectorAll('script[type="module"]')).toHaveLength(1);
    expect(p.document.querySelector('script[type="module"]')?.getAttribute("nonce")).toBe("n");
    expect([...p.document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute("href"))).toEqual([
      "https://site.test/assets/entry.client-A.js",
    ]);
    expect(p.fetched).toEqual(["https://site.test/i18n/en?v=1"]);
  });

  it("registers the service worker once the page has loaded, without the app", () => {
    const p = page({ intent: true, body: BODY });
    expect(p.registered).toEqual([]);
    p.window.dispatchEvent(new p.window.Event("load"));
    expect(p.registered).toEqual(["/sw.js"]);
    expect(p.started()).toBe(false);
  });

  it("reloads the page when the app's entry cannot be loaded, at most once a minute", () => {
    const p = page({ intent: true, body: BODY });
    p.fire(p.document.getElementById("button") as Element, "pointerover");
    const entry = p.document.querySelector('script[type="module"]') as HTMLScriptElement;
    entry.dispatchEvent(new p.window.Event("error"));
    const reloadedAt = Number(p.window.sessionStorage.getItem("chunk-reload-at"));
    expect(Date.now() - reloadedAt).toBeLessThan(5_000);
    const reloads = () => p.jsdomErrors.filter((m) => /navigation|reload/i.test(m)).length;
    expect(reloads()).toBe(1);
    // A second failure within the minute (the new page's entry missing too) does not loop.
    entry.dispatchEvent(new p.window.Event("error"));
    expect(reloads()).toBe(1);
    expect(Number(p.window.sessionStorage.getItem("chunk-reload-at"))).toBe(reloadedAt);
  });

  it("reloads too when the entry's import() fails before hydration, and not for other rejections", () => {
    const p = page({ intent: true, body: BODY });
    const reloads = () => p.jsdomErrors.filter((m) => /navigation|reload/i.test(m)).length;
    const reject = (reason: unknown) => {
      const event = new p.window.Event("unhandledrejection") as Event & { reason?: unknown };
      event.reason = reason;
      p.window.dispatchEvent(event);
    };
    reject(new Error("quota exceeded"));
    expect(reloads()).toBe(0);
    reject(new TypeError("Failed to fetch dynamically imported module: https://site.test/assets/entry.client-A.js"));
    expect(reloads()).toBe(1);
  });

  it("starts on a key press, and from the global the browser tests use", () => {
    const keyed = page({ intent: true, body: BODY });
    keyed.fire(keyed.document.body, "keydown");
    expect(keyed.started()).toBe(true);
    const called = page({ intent: true, body: BODY });
    (called.window as unknown as Record<string, () => void>)[START_APP_GLOBAL]?.();
    expect(called.started()).toBe(true);
  });

  it("holds a click on a control until the page is hydrated, then replays it on the same element", async () => {
    const p = page({ intent: true, body: BODY });
    const button = p.document.getElementById("button") as HTMLButtonElement;
    let clicks = 0;
    button.addEventListener("click", () => clicks++);
    const held = p.fire(button, "click");
    expect(held.defaultPrevented).toBe(true);
    expect(clicks).toBe(0);
    expect(button.getAttribute("aria-busy")).toBe("true");
    expect(p.started()).toBe(true);
    await p.hydrate();
    expect(clicks).toBe(1);
    expect(button.hasAttribute("aria-busy")).toBe(false);
    // Hydrated: clicks go straight to the app.
    expect(p.fire(button, "click").defaultPrevented).toBe(false);
    expect(clicks).toBe(2);
  });

  it("replays only the last of several held clicks", async () => {
    const p = page({ intent: true, body: BODY });
    const button = p.document.getElementById("button") as HTMLButtonElement;
    const signup = p.document.getElementById("signup") as HTMLAnchorElement;
    const seen: string[] = [];
    for (const el of [button, signup])
      el.addEventListener("click", (event) => {
        seen.push(el.id);
        event.preventDefault();
      });
    p.fire(button, "click");
    p.fire(signup, "click");
    expect(button.hasAttribute("aria-busy")).toBe(false);
    await p.hydrate();
    expect(seen).toEqual(["signup"]);
  });

  it("lets a smartphone follow the signup link instead of waiting for the modal's app", () => {
    const phone = page({ intent: true, smartphone: true, body: BODY });
    const link = phone.document.getElementById("signup") as HTMLAnchorElement;
    link.addEventListener("click", (event) => event.preventDefault());
    const click = new phone.window.MouseEvent("click", { bubbles: true, cancelable: true });
    link.dispatchEvent(click);
    expect(link.hasAttribute("aria-busy")).toBe(false);
    const desktop = page({ intent: true, body: BODY });
    const held = desktop.fire(desktop.document.getElementById("signup") as Element, "click");
    expect(held.defaultPrevented).toBe(true);
  });

  it("stops forms from being sent by the browser until hydrated", async () => {
    const p = page({ intent: true, body: '<form id="f"><input name="password"></form>' });
    const form = p.document.getElementById("f") as HTMLFormElement;
    expect(p.fire(form, "submit").defaultPrevented).toBe(true);
    await p.hydrate();
    expect(p.fire(form, "submit").defaultPrevented).toBe(false);
  });
});

describe("START_SCRIPTS elsewhere", () => {
  it("starts at once in a page that is not visible (no frames come) and never holds clicks", () => {
    const p = page({ intent: false, body: BODY });
    expect(p.document.visibilityState).not.toBe("visible");
    expect(p.started()).toBe(true);
    expect(p.fire(p.document.getElementById("button") as Element, "click").defaultPrevented).toBe(false);
  });

  it("appends the preload links a batch per task, so starting is no long task (decision 039)", async () => {
    const chunks = Array.from({ length: 2 * PRELOAD_BATCH + 3 }, (_, i) => `/assets/chunk-${i}.js`);
    const head = chunks.map((href) => `<link rel="${DEFERRED_PRELOAD_REL}" href="${href}" nonce="n">`).join("");
    const p = page({ intent: false, body: BODY, head });
    const preloads = () =>
      [...p.document.querySelectorAll('link[rel="modulepreload"]')].map((l) => new URL(l.getAttribute("href") ?? "").pathname);
    expect(p.started()).toBe(true);
    expect(preloads()).toEqual(chunks.slice(0, PRELOAD_BATCH));
    for (let i = 0; i < 4; i++) await new Promise((resolve) => p.window.setTimeout(resolve, 0));
    expect(preloads()).toEqual([...chunks, "/assets/entry.client-A.js"]);
    expect(p.document.querySelector('link[rel="modulepreload"]')?.getAttribute("nonce")).toBe("n");
  });
});

describe("hideDismissedScript", () => {
  const SCRIPT = hideDismissedScript(["skipped-site-entry-warning", "add-photos"]);
  const ALERT =
    '<div id="alert" data-dismissal="skipped-site-entry-warning"><button id="dismiss" data-dismiss="skipped-site-entry-warning">Enter</button></div>';

  function head(stored: Record<string, string>) {
    const dom = new JSDOM(`<!DOCTYPE html><html><head></head><body>${ALERT}</body></html>`, {
      runScripts: "outside-only",
      url: "https://site.test/",
    });
    for (const [key, value] of Object.entries(stored)) dom.window.localStorage.setItem(key, value);
    dom.window.eval(SCRIPT);
    const hidden = () => dom.window.getComputedStyle(dom.window.document.getElementById("alert") as Element).display === "none";
    return { dom, hidden };
  }

  it("hides an alert dismissed before, and only with a valid timestamp", () => {
    expect(head({ "skipped-site-entry-warning": "2026-11-01T10:00:00.000Z" }).hidden()).toBe(true);
    expect(head({}).hidden()).toBe(false);
    expect(head({ "skipped-site-entry-warning": "garbage" }).hidden()).toBe(false);
  });

  it("dismisses before hydration: remembered with a timestamp and hidden at once", () => {
    const { dom, hidden } = head({});
    (dom.window.document.getElementById("dismiss") as HTMLButtonElement).click();
    expect(hidden()).toBe(true);
    expect(Number.isNaN(Date.parse(dom.window.localStorage.getItem("skipped-site-entry-warning") ?? ""))).toBe(false);
  });

  it("leaves the click to the app once hydrated", () => {
    const { dom, hidden } = head({});
    dom.window.document.documentElement.dataset.hydrated = "true";
    (dom.window.document.getElementById("dismiss") as HTMLButtonElement).click();
    expect(hidden()).toBe(false);
    expect(dom.window.localStorage.getItem("skipped-site-entry-warning")).toBeNull();
  });
});
