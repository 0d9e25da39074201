import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, expectAccessible, hydrated, message, skipEntryWarning, test, watchConsole } from "./fixtures";

const LOCALES = ["en", "nl", "de", "es", "fr", "it", "pl"] as const;
const screenshots = path.join(import.meta.dirname, "screenshots");
mkdirSync(screenshots, { recursive: true });

for (const locale of LOCALES) {
  test(`home page is server-rendered and hydrated in ${locale}`, async ({ browser, request, baseURL }) => {
    const title = message(locale, "site.index_title", { site: "Amoria" });
    // Server HTML: right language before any script runs.
    const response = await request.get("/", { headers: { cookie: `i18n_redirected=${locale}` } });
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<html lang="${locale}"`);
    expect(html).toContain(title.replace(/&/g, "&amp;"));
    expect(response.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);

    // After hydration: same text, no hydration warnings, the language switcher works (needs JS).
    const context = await browser.newContext({ baseURL });
    await context.addCookies([{ name: "i18n_redirected", value: locale, url: baseURL ?? "" }]);
    await skipEntryWarning(context);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await page.locator("#language-switcher").click();
    await expect(page.getByRole("link", { name: message(locale, "language.all") })).toBeVisible();
    await expect(page.locator("footer")).toContainText(message(locale, "footer.terms"));
    expect(problems).toEqual([]);
    await context.close();
  });
}

test("the browser's language is used when no cookie is set", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, locale: "fr-FR" });
  await skipEntryWarning(context);
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(message("fr", "site.index_title", { site: "Amoria" }));
  await context.close();
});

test("switching the language saves it in the cookie and re-renders without a reload", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, locale: "en-US" });
  await skipEntryWarning(context);
  const page = await context.newPage();
  await page.goto("/");
  await hydrated(page);
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  await page.locator("#language-switcher").click();
  await page.getByRole("button", { name: "Deutsch" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(message("de", "site.index_title", { site: "Amoria" }));
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  const cookie = (await context.cookies()).find((c) => c.name === "i18n_redirected");
  expect(cookie?.value).toBe("de");
  expect(cookie?.sameSite).toBe("Lax");
  expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await context.close();
});

test("/lang-config lists every language and switches", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  await skipEntryWarning(context);
  const page = await context.newPage();
  await page.goto("/lang-config");
  await hydrated(page);
  for (const name of ["English", "Nederlands", "Deutsch", "Español", "Français", "Italiano", "Polski"]) {
    await expect(page.getByRole("radio", { name })).toBeVisible();
  }
  await page.getByRole("radio", { name: "Polski" }).check();
  await expect(page.locator("html")).toHaveAttribute("lang", "pl");
  await expect(page.getByRole("status")).toContainText("Polski");
  await context.close();
});

test("unknown routes answer 404 with the error page and a link home", async ({ page, request }) => {
  const response = await request.get("/this/does/not/exist");
  expect(response.status()).toBe(404);
  expect(await response.text()).toContain("This page could not be found");
  await skipEntryWarning(page.context());
  await page.goto("/this/does/not/exist");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("This page could not be found");
  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Go to the home page" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the site-entry warning shows once and is remembered", async ({ page }) => {
  await page.goto("/");
  const dialog = page.getByRole("dialog", { name: "Before you enter" });
  await expect(dialog).toBeVisible();
  await expect(page.locator("#site-entry-warning")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "I am 18 or older, enter" }).click();
  await expect(dialog).toBeHidden();
  const stored = await page.evaluate(() => localStorage.getItem("skipped-site-entry-warning"));
  expect(Number.isNaN(Date.parse(stored ?? ""))).toBe(false);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(dialog).toBeHidden();
});

test("tracking parameters are stored and stripped from the URL", async ({ page }) => {
  await skipEntryWarning(page.context());
  await page.goto("/?network=partner&sub=abc&cpc=0.2&country=de");
  await expect(page).toHaveURL(/\/\?country=de$/);
  const cookie = (await page.context().cookies()).find((c) => c.name === "tracking");
  expect(JSON.parse(decodeURIComponent(cookie?.value ?? "{}"))).toEqual({ network: "partner", sub1: "abc" });
  expect(cookie?.httpOnly).toBe(true);
});

test("home page has demo members with photos, passes axe and is captured", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  await skipEntryWarning(context);
  const page = await context.newPage();
  await page.goto("/");
  const cards = page
    .getByRole("list")
    .filter({ has: page.getByRole("img", { name: /Photo of/ }) })
    .getByRole("listitem");
  await expect(cards).toHaveCount(12);
  const firstPhoto = page.getByRole("img", { name: /Photo of/ }).first();
  await expect(firstPhoto).toHaveJSProperty("complete", true);
  expect(await firstPhoto.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await expectAccessible(page);
  await page.screenshot({ path: path.join(screenshots, "home.png"), fullPage: true });
  await page.goto("/does-not-exist");
  await expectAccessible(page);
  await page.screenshot({ path: path.join(screenshots, "not-found.png") });
  await context.close();
});

test("the entry warning modal is accessible", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page);
});

test("the mobile layout collapses and stays usable", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 375, height: 740 }, isMobile: true });
  await skipEntryWarning(context);
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByRole("link", { name: message("en", "home.cta_signup") })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(screenshots, "home-mobile.png") });
  await context.close();
});
