import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, message, open, skipEntryWarning, test, watchConsole } from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");
const LOCALES = ["en", "nl", "de", "es", "fr", "it", "pl"] as const;

/** Every lander path: the three without a slug, and the others bare, with a campaign slug and an unknown one. */
const PATHS = [
  "/landers/adultonly",
  "/landers/tinderswipe",
  "/landers/whoneedsstrings",
  ...[
    ["alonetonight", "women"],
    ["collagelanding", "men"],
    ["gallery", "over40"],
    ["iconslanding", "women"],
    ["maplanding", "nearby"],
    ["socialnetwork", "men"],
    ["transitionsvideolanding", "nearby"],
    ["video", "women"],
  ].flatMap(([lander, slug]) => [`/landers/${lander}`, `/landers/${lander}/${slug}`, `/landers/${lander}/no-such-campaign`]),
];

const titleOf = (html: string) => html.match(/<title>([^<]*)<\/title>/)?.[1] ?? "";
const descriptionsOf = (html: string) => [...html.matchAll(/<meta name="description" content="([^"]*)"/g)].map((m) => m[1]);

test("every lander answers 200 in all seven languages, each in its own words", async ({ request }) => {
  for (const url of PATHS) {
    const pages: { title: string; description: string }[] = [];
    for (const locale of LOCALES) {
      const response = await request.get(url, { headers: { cookie: `i18n_redirected=${locale}` }, maxRedirects: 0 });
      expect(response.status(), `${url} in ${locale}`).toBe(200);
      const html = await response.text();
      expect(html).toContain(`<html lang="${locale}"`);
      const descriptions = descriptionsOf(html);
      // The lander's own description replaces the site's: exactly one.
      expect(descriptions, `${url} ${locale}`).toHaveLength(1);
      pages.push({ title: titleOf(html), description: descriptions[0] ?? "" });
    }
    expect(pages[0]?.title).toContain("Amoria");
    expect(new Set(pages.map((p) => p.title)).size, `${url} titles`).toBe(LOCALES.length);
    expect(new Set(pages.map((p) => p.description)).size, `${url} descriptions`).toBe(LOCALES.length);
  }
});

test("a campaign slug changes the headline; an unknown slug shows the default one", async ({ page }) => {
  await skipEntryWarning(page.context());
  await open(page, "/landers/gallery/women");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(message("en", "lander.variant.women", { site: "Amoria" }));
  await open(page, "/landers/gallery/whatever");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(message("en", "lander.gallery.headline"));
});

test("a lander reached with tracking parameters keeps the visitor on the lander, without them", async ({ page }) => {
  await skipEntryWarning(page.context());
  await open(page, "/landers/iconslanding/women?network=x&sub1=y");
  expect(new URL(page.url()).pathname).toBe("/landers/iconslanding/women");
  expect(new URL(page.url()).search).toBe("");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(message("en", "lander.variant.women", { site: "Amoria" }));
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === "tracking")?.value).toContain("network");
});

/** Opens a lander and checks it with axe; members' photos are its visual. */
async function openLander(page: Page, url: string) {
  const problems = watchConsole(page);
  await open(page, url);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page);
  expect(problems).toEqual([]);
}

for (const url of [
  "/landers/whoneedsstrings",
  "/landers/alonetonight",
  "/landers/collagelanding/women",
  "/landers/gallery",
  "/landers/iconslanding",
  "/landers/socialnetwork",
  "/landers/transitionsvideolanding",
  "/landers/video/men",
]) {
  test(`${url} shows members' photos and a call to sign up, accessibly`, async ({ page }) => {
    await skipEntryWarning(page.context());
    await openLander(page, url);
    await expect(page.locator("main img").first()).toBeVisible();
    await expect(page.getByRole("link", { name: message("en", "lander.login") })).toBeVisible();
    await expect(page.locator('main a[href="/signup"]').first()).toBeVisible();
    await page.screenshot({ path: path.join(shots, `lander-${url.split("/")[2]}.png`) });
  });
}

test("the signup call opens the signup form in a modal on desktop", async ({ page }) => {
  await skipEntryWarning(page.context());
  await open(page, "/landers/gallery");
  await page
    .getByRole("link", { name: message("en", "lander.cta") })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: message("en", "signup.title") });
  await expect(dialog).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/landers/gallery");
});

test("on a smartphone the signup call goes to the signup page", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await skipEntryWarning(context);
  const page = await context.newPage();
  await open(page, "/landers/collagelanding/men");
  await page
    .getByRole("link", { name: message("en", "lander.cta") })
    .first()
    .click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole("heading", { level: 1, name: message("en", "signup.title") })).toBeVisible();
  await context.close();
});

test("adultonly shows nothing before the 18+ gate is passed; leaving goes away", async ({ page }) => {
  await skipEntryWarning(page.context());
  await openLander(page, "/landers/adultonly");
  const gate = page.getByRole("dialog", { name: message("en", "lander.adultonly.gate_title") });
  await expect(gate).toBeVisible();
  await expect(page.getByRole("button", { name: message("en", "lander.adultonly.gate_enter") })).toBeFocused();
  await expect(page.locator("main img")).toHaveCount(0);
  await expect(gate.getByRole("link", { name: message("en", "lander.adultonly.gate_leave") })).toHaveAttribute(
    "href",
    /^https:\/\/www\.google\./,
  );
  await page.screenshot({ path: path.join(shots, "lander-adultonly-gate.png") });

  await page.getByRole("button", { name: message("en", "lander.adultonly.gate_enter") }).click();
  await expect(gate).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: message("en", "lander.adultonly.headline") })).toBeFocused();
  await expect(page.locator("main img").first()).toBeVisible();
  await expectAccessible(page);
});

test("tinderswipe: four cards by button, key and drag, then the call to sign up", async ({ page }) => {
  await skipEntryWarning(page.context());
  await openLander(page, "/landers/tinderswipe");
  const count = (n: number) => message("en", "lander.tinderswipe.count", { current: String(n), total: "4" });
  await expect(page.getByText(count(1))).toBeVisible();
  await page.getByRole("button", { name: message("en", "lander.tinderswipe.like") }).click();
  await expect(page.getByText(count(2))).toBeVisible();
  await page.getByRole("button", { name: message("en", "lander.tinderswipe.pass") }).click();
  await expect(page.getByText(count(3))).toBeVisible();
  // The arrow keys swipe while the deck has focus.
  await page.getByRole("button", { name: message("en", "lander.tinderswipe.like") }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByText(count(4))).toBeVisible();
  // A drag far enough to the right is a like.
  const card = page.getByTestId("swipe-card");
  const box = await card.boundingBox();
  if (!box) throw new Error("no card");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 + 160, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const done = page.getByRole("heading", { level: 2, name: /You liked 3 people/ });
  await expect(done).toBeVisible();
  await expect(done).toBeFocused();
  await expect(page.getByRole("link", { name: message("en", "lander.cta") })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "lander-tinderswipe-done.png") });
});

test("maplanding draws members on the visitor's country with no request to another origin", async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(baseURL ?? "") && !url.startsWith("data:")) foreign.push(url);
  });
  await skipEntryWarning(page.context());
  await openLander(page, "/landers/maplanding");
  const map = page.getByRole("img", { name: /^Map of / });
  await expect(map).toBeVisible();
  expect(await map.locator(".ld-map-marker").count()).toBeGreaterThan(0);
  await page.screenshot({ path: path.join(shots, "lander-maplanding.png") });
  // In German, the map speaks German.
  await page.context().addCookies([{ name: "i18n_redirected", value: "de", url: baseURL ?? "" }]);
  await open(page, "/landers/maplanding/women");
  await expect(page.getByRole("img", { name: /^Karte von / })).toBeVisible();
  expect(foreign).toEqual([]);
});

test("the entry warning shows on a lander in Dutch, not in English", async ({ page, baseURL }) => {
  await open(page, "/landers/gallery");
  await expect(page.locator("#site-entry-warning")).toHaveCount(0);
  await page.context().addCookies([{ name: "i18n_redirected", value: "nl", url: baseURL ?? "" }]);
  await open(page, "/landers/gallery");
  await expect(page.locator("#site-entry-warning")).toBeVisible();
});
