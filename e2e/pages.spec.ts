import path from "node:path";
import { expect, expectAccessible, message, open, skipEntryWarning, test } from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");

test("every footer link leads to a page, and the legal pages read in the visitor's language", async ({ page }) => {
  await skipEntryWarning(page.context());
  await open(page, "/");
  const hrefs = await page
    .getByRole("contentinfo")
    .getByRole("link")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  const internal = [...new Set(hrefs.filter((href) => href.startsWith("/")))];
  expect(internal).toEqual(expect.arrayContaining(["/pages/terms", "/pages/privacy", "/pricing", "/complaints"]));
  for (const href of internal) expect((await page.request.get(href)).status(), href).toBe(200);

  await open(page, "/pages/terms");
  await expect(page.getByRole("heading", { level: 1, name: "Terms and conditions" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("Amoria Media B.V.");
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "pages-terms.png"), fullPage: true });

  await page.context().addCookies([{ name: "i18n_redirected", value: "de", url: page.url() }]);
  await open(page, "/pages/privacy");
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Privacy policy");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  expect((await page.request.get("/pages/no-such-page")).status()).toBe(404);
});

test("a visitor files a complaint and gets a reference", async ({ page }) => {
  await skipEntryWarning(page.context());
  await open(page, "/complaints");
  await expect(page.getByRole("heading", { level: 1, name: "Complaints" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("What is it about?").selectOption("technical");
  await page.getByLabel("Describe what happened").fill("The photo upload stops at 90 percent every time I try it.");
  await page.getByLabel(/e-mail/i).fill(`visitor.${Date.now()}@example.org`);
  await page.getByRole("button", { name: /send/i }).click();
  await expect(page.getByText(/Your reference is C-[2-9A-Z]{4}-[2-9A-Z]{4}/)).toBeVisible();
  await page.screenshot({ path: path.join(shots, "complaints-sent.png") });
});

test("the complaints form reads in each of the seven languages", async ({ page }) => {
  const titles = new Set<string>();
  for (const locale of ["en", "nl", "de", "es", "fr", "it", "pl"]) {
    const response = await page.request.get("/complaints", { headers: { cookie: `i18n_redirected=${locale}` } });
    expect(response.status(), locale).toBe(200);
    const html = await response.text();
    const title = message(locale, "complaints.title");
    expect(html, locale).toContain(`lang="${locale}"`);
    expect(html, locale).toMatch(new RegExp(`<h1[^>]*>${title}</h1>`));
    titles.add(title);
  }
  expect(titles.size).toBe(7);
});

test("every information page passes the accessibility scan", async ({ page }) => {
  await skipEntryWarning(page.context());
  for (const slug of ["2257-compliance-statement", "ban", "cookies", "faq", "privacy", "return-policy", "service", "terms"]) {
    await open(page, `/pages/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page);
  }
});
