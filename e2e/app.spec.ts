import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, expectAccessible, hydrated, message, open, skipEntryWarning, test, watchConsole } from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");

test.describe("the service worker", () => {
  // Workers are blocked in the other specs (playwright.config.ts); these tests are about the worker.
  test.use({ serviceWorkers: "allow" });

  test("controls the site, shows the translated offline page when the network is gone, and steps aside again", async ({
    page,
    context,
    baseURL,
  }) => {
    const problems = watchConsole(page);
    await skipEntryWarning(context);
    await context.addCookies([{ name: "i18n_redirected", value: "de", url: String(baseURL) }]);
    await open(page, "/");
    // Registered after hydration; it claims the page that registered it once it is active.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
    const worker = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return { scope: registration.scope, script: registration.active?.scriptURL ?? "" };
    });
    expect(new URL(worker.scope).pathname).toBe("/");
    expect(new URL(worker.script).pathname).toBe("/sw.js");
    // Its cache holds the offline page and nothing else: no page, API answer or photo of the visit.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(cached).toEqual(["/offline"]);

    await context.setOffline(true);
    // API answers are never served by the worker (nor from its cache): offline, the site's own call fails.
    const api = await page.evaluate(() =>
      fetch("/api/settings.php").then(
        () => "answered",
        () => "failed",
      ),
    );
    expect(api).toBe("failed");
    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1, name: message("de", "app.offline_title") })).toBeVisible();
    await expect(page.getByText(message("de", "app.offline_text"))).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    // The address stays the one asked for, so that "try again" asks for it again.
    expect(new URL(page.url()).pathname).toBe("/login");
    await expectAccessible(page);
    await page.screenshot({ path: path.join(shots, "app-offline.png") });

    // A language chosen since the worker cached the page applies to it too (the locale cookie of the moment).
    await context.addCookies([{ name: "i18n_redirected", value: "fr", url: String(baseURL) }]);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: message("fr", "app.offline_title") })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");

    await context.setOffline(false);
    await page.getByRole("button", { name: message("fr", "app.retry") }).click();
    await hydrated(page);
    await expect(page.locator("input[type=email]")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: message("fr", "app.offline_title") })).toHaveCount(0);
    expect(problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(p))).toEqual([]);
  });

  test("shows a push message as a notification for a page of this site and tells the open page (version 2)", async ({
    page,
    context,
    baseURL,
  }) => {
    const origin = new URL(String(baseURL)).origin;
    await context.grantPermissions(["notifications"], { origin });
    await skipEntryWarning(context);
    await open(page, "/");
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
    // A push as the browser's push service delivers it (DevTools protocol), to this site's registration.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    // Spec §7: the worker tells the open pages of the push (NEW_PUSH_MESSAGE); the page keeps what it hears.
    await page.evaluate(() => {
      const heard: unknown[] = [];
      (window as unknown as { heard: unknown[] }).heard = heard;
      navigator.serviceWorker.addEventListener("message", (event) => heard.push(event.data));
    });
    const payload = { kind: "like", title: "Anna liked you", body: "Say hello to Anna", url: "/likes/received", tag: "likes" };
    const id = await registrationId;
    const deliver = () =>
      cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId: id, data: JSON.stringify(payload) });
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          url: n.data?.url,
        })),
      );
    await deliver();
    // On a loaded machine the browser may be slow to start the worker for the push, and DevTools
    // drops a push it could not dispatch: one that shows nothing for a while is delivered again.
    let polls = 0;
    await expect
      .poll(
        async () => {
          const notifications = await shown();
          if (notifications.length === 0 && ++polls % 8 === 0) await deliver();
          return notifications[0] ?? null;
        },
        { timeout: 30_000 },
      )
      .toEqual({ title: payload.title, body: payload.body, url: `${origin}/likes/received` });
    // Every notification shown is this push, as the worker made it.
    expect(new Set((await shown()).map((n) => JSON.stringify(n)))).toEqual(
      new Set([JSON.stringify({ title: payload.title, body: payload.body, url: `${origin}/likes/received` })]),
    );
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { heard: unknown[] }).heard[0] ?? null))
      .toEqual({ type: "NEW_PUSH_MESSAGE", payload });
    // Spec §9: the push service worker's version.
    expect(await (await page.request.get("/sw.js")).text()).toContain("PUSH_VERSION = 2;");
  });
});

/**
 * Installed-app display, as far as the page can tell: Playwright cannot set display-mode, so the page's
 * matchMedia answers "(display-mode: standalone)" with a match (lib/display-mode.ts asks it).
 */
async function emulateStandalone(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const original = window.matchMedia.bind(window);
    window.matchMedia = (query: string) => {
      if (!query.includes("display-mode: standalone")) return original(query);
      return {
        matches: true,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      } as MediaQueryList;
    };
  });
}

/** Lets the renders that follow hydration (display mode known) happen before asserting an absence. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))),
  );
}

const backButton = (page: Page) => page.locator("header").getByRole("button", { name: "Back", exact: true });

/** The screens of spec §2 with a back button, by route id, as addresses for the premium demo member. */
async function backButtonScreens(page: Page): Promise<Record<string, string>> {
  const members = (await (await page.request.get("/api/members.php")).json()) as { profiles: { id: number }[] };
  const bundles = (await (await page.request.get("/api/bundles.php")).json()) as { bundles: { id: number }[] };
  const memberId = members.profiles[0]?.id;
  const bundleId = bundles.bundles[0]?.id;
  expect(memberId && bundleId).toBeTruthy();
  return {
    "members-id": `/members/${memberId}`,
    "likes-type": "/likes/received",
    "likes-m-id": `/likes/m/${memberId}`,
    credits: "/credits",
    "credits-id-paymentmethod": `/credits/${bundleId}`,
  };
}

test("in the installed app, the back button shows on the screens of spec §2 with a page to go back to, and goes back", async ({
  page,
  loginAs,
}) => {
  test.slow(); // Eleven pages opened, each to full load.
  await skipEntryWarning(page.context());
  await emulateStandalone(page.context());
  await loginAs("premium");
  const screens = await backButtonScreens(page);

  for (const [route, url] of Object.entries(screens)) {
    await open(page, "/members");
    await settled(page);
    await expect(backButton(page), "not on the search page").toHaveCount(0);
    await open(page, url);
    await expect(backButton(page), route).toBeVisible();
    await backButton(page).click();
    await expect(page, route).toHaveURL(/\/members$/);
  }
  await expectAccessible(page);

  // Other screens have none, even with history behind them.
  for (const url of ["/likes", "/settings", "/pricing"]) {
    await open(page, url);
    await settled(page);
    await expect(backButton(page), url).toHaveCount(0);
  }
});

test("no back button without a page to go back to, nor in the browser's own display", async ({ browser }) => {
  test.slow(); // Fifteen pages opened, each to full load.
  // Installed app, opened straight on the screen (a new window: history of one entry): nothing to go back to.
  const standalone = await browser.newContext();
  await skipEntryWarning(standalone);
  await emulateStandalone(standalone);
  const first = await standalone.newPage();
  const login = await first.request.post("/api/user.php", {
    data: { email: "premium@example.com", password: "premium-demo-2025" },
  });
  expect(login.status()).toBe(200);
  const screens = await backButtonScreens(first);
  await open(first, "/members");
  for (const [route, url] of Object.entries(screens)) {
    const [page] = await Promise.all([standalone.waitForEvent("page"), first.evaluate((u) => window.open(u, "_blank"), url)]);
    await page.waitForLoadState("networkidle");
    await hydrated(page);
    expect(await page.evaluate(() => window.history.length), route).toBe(1);
    await settled(page);
    await expect(backButton(page), route).toHaveCount(0);
    await page.close();
  }
  await standalone.close();

  // A browser tab with history: the browser has its own back button.
  const tab = await browser.newContext();
  await skipEntryWarning(tab);
  const page = await tab.newPage();
  const again = await page.request.post("/api/user.php", {
    data: { email: "premium@example.com", password: "premium-demo-2025" },
  });
  expect(again.status()).toBe(200);
  for (const url of Object.values(screens)) {
    await open(page, "/members");
    await open(page, url);
    await settled(page);
    await expect(backButton(page), url).toHaveCount(0);
  }
  await tab.close();
});
