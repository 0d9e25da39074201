import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, hydrated, message, test, watchConsole } from "./fixtures";

/**
 * Decision 028: a logged-out visitor's home page, pages and landers load the app's JavaScript only
 * when the visitor reaches for a control; what they need before that works without it.
 */

const shots = path.join(import.meta.dirname, "screenshots");

/** Counts the JavaScript files the page downloads. */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

test("a first-time visitor reads the home page and passes the entry warning without downloading the app", async ({ page }) => {
  const problems = watchConsole(page);
  const scripts = scriptsOf(page);
  await page.goto("/", { waitUntil: "networkidle" });
  await expect(page.locator("html")).toHaveAttribute("data-start", "intent");

  // The warning is in the server's HTML, its button focused, and it passes the scan.
  const warning = page.getByRole("dialog", { name: message("en", "entry.title") });
  await expect(warning).toBeVisible();
  const enter = warning.getByRole("button", { name: message("en", "entry.enter") });
  await expect(enter).toBeFocused();
  await expectAccessible(page, "#site-entry-warning");
  await page.screenshot({ path: path.join(shots, "home-entry-warning-without-app.png") });

  await enter.click();
  await expect(warning).toBeHidden();
  expect(Number.isNaN(Date.parse((await page.evaluate(() => localStorage.getItem("skipped-site-entry-warning"))) ?? ""))).toBe(
    false,
  );
  // Scrolling, reading and waiting load nothing.
  await page.mouse.wheel(0, 600);
  await page.waitForTimeout(1000);
  expect(scripts).toEqual([]);
  await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", /.*/);

  // A returning visitor does not see it again, even before the app is there.
  await page.reload({ waitUntil: "networkidle" });
  await expect(warning).toBeHidden();
  expect(scripts).toEqual([]);
  expect(problems).toEqual([]);
});

test("pointing at the signup button loads the app; a click before it is here opens the modal once it is", async ({ page }) => {
  const problems = watchConsole(page);
  await page.addInitScript(() => window.localStorage.setItem("skipped-site-entry-warning", new Date().toISOString()));
  const scripts = scriptsOf(page);
  await page.goto("/", { waitUntil: "networkidle" });
  expect(scripts).toEqual([]);

  // Hold the app back so that the click surely comes first.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/assets/entry.client-*.js", async (route) => {
    await held;
    await route.continue();
  });
  const signup = page.getByRole("link", { name: message("en", "home.cta_signup") });
  await signup.click();
  await expect(signup).toHaveAttribute("aria-busy", "true");
  // The visitor sees at once that the click was taken (issue #29): a spinner in the button, while the
  // app is still held back (a cursor alone says nothing on a phone).
  const spinner = await signup.evaluate((element) => {
    const after = getComputedStyle(element, "::after");
    return { content: after.content, animation: after.animationName, width: after.width };
  });
  expect(spinner).toEqual({ content: '""', animation: "spinner-border", width: expect.stringMatching(/^[1-9]/) });
  await page.screenshot({ path: path.join(shots, "home-signup-held.png") });
  // Held, not followed: the modal's link stays on the home page.
  await expect(page).toHaveURL(/\/$/);
  release();

  const dialog = page.getByRole("dialog", { name: message("en", "signup.title") });
  await expect(dialog).toBeVisible();
  await expect(signup).not.toHaveAttribute("aria-busy", /.*/);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  expect(scripts.length).toBeGreaterThan(0);
  expect(problems).toEqual([]);
});

test("a plain link is followed without the app, and the next page does not load it either", async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem("skipped-site-entry-warning", new Date().toISOString()));
  const scripts = scriptsOf(page);
  await page.goto("/", { waitUntil: "networkidle" });
  await page
    .getByRole("contentinfo")
    .getByRole("link", { name: message("en", "footer.terms") })
    .click();
  await expect(page).toHaveURL(/\/pages\/terms$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(scripts).toEqual([]);
});

test("the 18+ gate's button, pressed before the app is here, lets the visitor in once it is", async ({ page }) => {
  const problems = watchConsole(page);
  const scripts = scriptsOf(page);
  await page.goto("/landers/adultonly", { waitUntil: "networkidle" });
  expect(scripts).toEqual([]);
  await page.keyboard.press("Tab");
  await page.getByRole("button", { name: message("en", "lander.adultonly.gate_enter") }).press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: message("en", "lander.adultonly.headline") })).toBeFocused();
  expect(scripts.length).toBeGreaterThan(0);
  expect(problems).toEqual([]);
});

test("a logged-in member's pages load the app at once", async ({ page, loginAs }) => {
  await loginAs("free");
  await page.goto("/pages/faq");
  await expect(page.locator("html")).not.toHaveAttribute("data-start", /.*/);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
});

test("a page left open across a deploy that removed the app's files reloads, and then works", async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem("skipped-site-entry-warning", new Date().toISOString()));
  let loads = 0;
  page.on("load", () => loads++);
  // Until the page has reloaded, the app's entry is gone (404), as after a deploy.
  await page.route("**/assets/entry.client-*.js", (route) =>
    loads <= 1 ? route.fulfill({ status: 404, body: "" }) : route.continue(),
  );
  await page.goto("/", { waitUntil: "networkidle" });
  await page.evaluate(() => {
    (window as unknown as { before?: boolean }).before = true;
  });
  const signup = page.getByRole("link", { name: message("en", "home.cta_signup") });
  await signup.hover();
  await expect.poll(() => loads).toBe(2);
  expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before)).toBeUndefined();
  await hydrated(page);
  await signup.click();
  await expect(page.getByRole("dialog", { name: message("en", "signup.title") })).toBeVisible();
});
