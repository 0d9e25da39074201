import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { expect, expectAccessible, message, newMember, open, test, watchConsole } from "./fixtures";
import { staffLoginInBrowser } from "./staff-helpers";

const zipFiles = (file: string) => unzipSync(new Uint8Array(readFileSync(file)));

test.describe("data export and site settings (issue #27)", () => {
  test("a member downloads their data from /settings: a ZIP with their account and a README", async ({ browser }) => {
    const member = await newMember(browser, "Exporta", { autoLike: false });
    const { page } = member;
    const problems = watchConsole(page);
    await open(page, "/settings");
    const section = page.getByRole("region", { name: message("en", "settings.export_title") });
    await expect(section).toBeVisible();
    const downloading = page.waitForEvent("download");
    await section.getByRole("button", { name: message("en", "settings.export_button") }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/-data-\d+-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = zipFiles(await download.path());
    expect(Object.keys(files)).toEqual(expect.arrayContaining(["README.txt", "account.json", "profile.json", "logins.json"]));
    expect(JSON.parse(strFromU8(files["profile.json"] ?? new Uint8Array()))).toMatchObject({ id: member.id, name: "Exporta" });
    expect(strFromU8(files["README.txt"] ?? new Uint8Array())).toContain("your data");
    await expect(section.getByText(message("en", "settings.export_done"))).toBeVisible();
    await expectAccessible(page, "section[aria-labelledby='settings-export-heading']");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("an admin previews and saves a site setting in /staff/settings; a bad value is refused on its field", async ({ page }) => {
    const problems = watchConsole(page);
    await staffLoginInBrowser(page, "admin");
    await open(page, "/staff/settings");
    const title = message("en", "staff.settings.title");
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    const description = page.getByLabel(message("en", "staff.settings.description"));
    const before = await description.inputValue();

    // A message length of 0: refused by the server on its field, nothing saved.
    const length = page.getByLabel(message("en", "staff.settings.message_length"));
    const lengthBefore = await length.inputValue();
    await length.fill("0");
    await page.getByRole("button", { name: message("en", "staff.settings.preview") }).click();
    await expect(page.getByText(message("en", "error.invalid_value"))).toBeVisible();
    await length.fill(lengthBefore);

    await description.fill("A friendly place to meet people, as the e2e test wrote it.");
    await page.keyboard.press("Escape");
    await page.locator("h1").click();
    await page.keyboard.press("p");
    const dialog = page.getByRole("dialog", { name: message("en", "staff.settings.changes_title") });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("row")).toHaveCount(2);
    await expect(dialog.getByRole("cell", { name: "A friendly place to meet people, as the e2e test wrote it." })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/staff-settings-preview.png" });
    await dialog.getByRole("button", { name: message("en", "staff.settings.save") }).click();
    await expect(page.getByText(message("en", "staff.settings.saved"))).toBeVisible();
    await expect(dialog).toBeHidden();
    // The whole form in one picture (a viewport as tall as the page keeps the action bar at its end).
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 1280, height });
    await page.screenshot({ path: "test-results/staff-settings.png" });
    await page.setViewportSize({ width: 1280, height: 720 });

    // Back as it was, through the same path.
    await description.fill(before);
    await page.getByRole("button", { name: message("en", "staff.settings.preview") }).click();
    await dialog.getByRole("button", { name: message("en", "staff.settings.save") }).click();
    await expect(page.getByText(message("en", "staff.settings.saved"))).toBeVisible();
    expect(problems.filter((p) => !/422 \(Unprocessable Entity\)/.test(p))).toEqual([]);
  });

  test("support sees discounts and data requests, not the site settings", async ({ page }) => {
    await staffLoginInBrowser(page, "support");
    const nav = page.getByRole("navigation", { name: message("en", "staff.nav.label") });
    await expect(nav.getByRole("link", { name: message("en", "staff.nav.discounts") })).toBeVisible();
    await expect(nav.getByRole("link", { name: message("en", "staff.nav.data_requests") })).toBeVisible();
    await expect(nav.getByRole("link", { name: message("en", "staff.nav.settings") })).toHaveCount(0);
    expect((await page.request.get("/staff/api/settings")).status()).toBe(403);
    await open(page, "/staff/discounts");
    await expect(page.getByRole("heading", { name: message("en", "staff.discounts.codes"), exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "SPRING10", exact: true })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/staff-discounts.png", fullPage: true });
    // Who used a code: Enter on the selected row opens its uses.
    await page.locator("h1").click();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectAccessible(page);
  });
});
