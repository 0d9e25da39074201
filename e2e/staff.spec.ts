import { expect, expectAccessible, hydrated, message, test, watchConsole } from "./fixtures";
import { DEMO_STAFF, freshCode, staffLoginInBrowser } from "./staff-helpers";

test.describe("the staff console", () => {
  test("a member's session opens nothing: /staff answers 404 to a member, pages and API alike", async ({ page, loginAs }) => {
    await loginAs("free");
    const response = await page.goto("/staff");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: message("en", "staff.login.title") })).toHaveCount(0);
    const api = await page.request.get("/staff/api/me");
    expect(api.status()).toBe(404);
    await expectAccessible(page);
  });

  test("the demo admin logs in with password and authenticator code, sees the console, and logs out", async ({ page }) => {
    const problems = watchConsole(page);
    const admin = DEMO_STAFF.admin;
    await page.goto("/staff/accounts");
    await hydrated(page);
    await page.getByLabel(message("en", "staff.login.email")).fill(admin.email);
    await page.getByLabel(message("en", "staff.login.password")).fill(admin.password);
    // A wrong code first: one message that does not say which part was wrong.
    await page.getByLabel(message("en", "staff.login.code")).fill("000000");
    await page.getByRole("button", { name: message("en", "staff.login.submit") }).click();
    await expect(page.getByText(message("en", "error.staff_login_failed"))).toBeVisible();
    await page.getByLabel(message("en", "staff.login.code")).fill(await freshCode(admin.email, admin.totpSecret));
    await page.getByRole("button", { name: message("en", "staff.login.submit") }).click();
    await expect(page.getByRole("heading", { name: message("en", "staff.accounts.title") })).toBeVisible();
    await expect(page.getByRole("navigation", { name: message("en", "staff.nav.label") })).toBeVisible();
    await expect(page.getByRole("cell", { name: admin.email })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/staff-accounts.png", fullPage: true });
    await page.getByRole("button", { name: message("en", "staff.logout") }).click();
    await expect(page.getByRole("heading", { name: message("en", "staff.login.title") })).toBeVisible();
    // The wrong code's 401 is the browser's own log line; nothing else may fail.
    expect(problems.filter((p) => !/401 \(Unauthorized\) \S*\/staff\/api\/login$/.test(p))).toEqual([]);
  });

  test("a new operator made by the admin logs in with TOTP, in their own language, and sees only their sections", async ({
    page,
  }) => {
    await staffLoginInBrowser(page, "operator", "nl");
    await expect(page.getByRole("heading", { name: /^Hallo / })).toBeVisible();
    const nav = page.getByRole("navigation", { name: message("nl", "staff.nav.label") });
    await expect(nav.getByRole("link", { name: message("nl", "staff.nav.accounts") })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: message("nl", "staff.nav.home") })).toBeVisible();
    // An operator's direct visit to an admin page: the API refuses, the page says so.
    const refused = await page.request.get("/staff/api/staff");
    expect(refused.status()).toBe(403);
    await expectAccessible(page);
  });
});
