import path from "node:path";
import {
  apiSignup,
  expect,
  message,
  newMember,
  open,
  setAlertState,
  skipEntryWarning,
  test,
  uniqueEmail,
  watchConsole,
} from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");

/**
 * Issue #29: a new member met the activation reminder, the add-photos alert, the time-bonus banner
 * and the 40-second popup at once. They come one at a time, most important first (lib/warnings.tsx),
 * each under spec §2's own conditions.
 */
test("a new member's alerts come one at a time: activation, then photos, then the time bonus", async ({ page }) => {
  const problems = watchConsole(page);
  await skipEntryWarning(page.context());
  // Just signed up: not confirmed, no photo, inside the time bonus's four hours.
  await apiSignup(page, uniqueEmail("alerts"), "correct horse battery", "Noor");
  await open(page, "/members");
  const activation = page.getByRole("alert").filter({ hasText: message("en", "alerts.activation_title") });
  const photos = page.getByRole("link", { name: "Add photos and a bio" });
  const banner = page.getByRole("region", { name: "Time bonus" });
  await expect(activation).toBeVisible();
  await expect(photos).toHaveCount(0);
  await expect(banner).toHaveCount(0);
  await page.screenshot({ path: path.join(shots, "alerts-1-activation.png") });

  await activation.getByRole("button", { name: message("en", "alerts.close") }).click();
  await expect(activation).toHaveCount(0);
  await expect(photos).toBeVisible();
  await expect(banner).toHaveCount(0);

  await page
    .getByRole("alert")
    .filter({ has: photos })
    .getByRole("button", { name: message("en", "alerts.close") })
    .click();
  await expect(photos).toHaveCount(0);
  // The push question (this browser can take push), then the offer.
  const push = page.getByRole("alert").filter({ hasText: message("en", "alerts.push_body") });
  await expect(push).toBeVisible();
  await expect(banner).toHaveCount(0);
  await push.getByRole("button", { name: message("en", "alerts.close") }).click();
  await expect(banner).toBeVisible();

  // Each stays dismissed on the next page: the banner is what is left.
  await open(page, "/likes");
  await expect(banner).toBeVisible();
  await expect(activation).toHaveCount(0);
  await expect(photos).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("the time-bonus popup waits until the alerts before it are settled", async ({ browser }) => {
  const member = await newMember(browser, "Mira", { autoLike: false });
  const page = member.page;
  // No wait at all: without the order, the popup would be up as soon as the page is. No credits: the popup is for them.
  await setAlertState(page, { dismissed: ["push-alert"], timeBonusDelayMs: 0, spendCredits: true });
  await open(page, "/members");
  await page.waitForLoadState("networkidle");
  const photos = page.getByRole("link", { name: "Add photos and a bio" });
  const popup = page.getByRole("dialog", { name: "Only 4 hours: 25% off!" });
  await expect(photos).toBeVisible();
  await expect(popup).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Time bonus" })).toHaveCount(0);

  await page
    .getByRole("alert")
    .filter({ has: photos })
    .getByRole("button", { name: message("en", "alerts.close") })
    .click();
  await expect(page.getByRole("region", { name: "Time bonus" })).toBeVisible();
  await expect(popup).toBeVisible();
  await page.context().close();
});
