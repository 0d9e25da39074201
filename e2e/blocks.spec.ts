import path from "node:path";
import {
  apiSignup,
  expect,
  expectAccessible,
  hydrated,
  linkPath,
  mailTo,
  memberInNewContext,
  skipEntryWarning,
  test,
  uniqueEmail,
} from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");

test("a member blocks another, who then finds the profile closed; unblocking from the settings opens it again", async ({
  browser,
}) => {
  // The blocked one: the free demo member Sam.
  const sam = await memberInNewContext(browser, "free@example.com", "free-demo-2025");
  const samId = (await (await sam.request.get("/api/profile.php")).json()).profile.id as number;

  // The blocker: a new, confirmed member.
  const robinContext = await browser.newContext();
  await skipEntryWarning(robinContext);
  const robin = await robinContext.newPage();
  const email = uniqueEmail("blocker");
  await apiSignup(robin, email);
  await robin.goto(linkPath(await mailTo(email, /Confirm your e-mail address/), "/api/activation.php?token="));
  const robinId = (await (await robin.request.get("/api/profile.php")).json()).profile.id as number;

  await robin.goto(`/members/${samId}`, { waitUntil: "networkidle" });
  await hydrated(robin);
  await expectAccessible(robin);
  await robin.getByRole("button", { name: "Block Sam" }).click();
  const dialog = robin.getByRole("dialog", { name: "Block Sam?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("You can unblock Sam later in your settings.");
  // Scanned once the fade-in is over (half-transparent buttons would fail the contrast check).
  await expect(robin.locator(".modal")).toHaveCSS("opacity", "1");
  await expectAccessible(robin, ".modal");
  await dialog.getByRole("button", { name: "Yes, block Sam" }).click();
  await expect(dialog).toBeHidden();
  await expect(robin.getByRole("status").filter({ hasText: "You have blocked Sam." })).toHaveCount(1);
  await expect(robin.getByText("You have blocked Sam. Sam cannot see your profile or contact you.")).toBeVisible();
  await expect(robin.getByRole("button", { name: "Unblock Sam" })).toBeVisible();
  await expect(robin.locator(".modal, .modal-backdrop")).toHaveCount(0);
  await expectAccessible(robin);
  await robin.screenshot({ path: path.join(shots, "member-blocked-by-me.png") });

  // Sam gets the spec's message with a 403, and nothing of Robin's profile.
  const closed = await sam.goto(`/members/${robinId}`, { waitUntil: "networkidle" });
  expect(closed?.status()).toBe(403);
  await expect(sam.getByText("You're blocked by Robin. You do not have access to this page.")).toBeVisible();
  await expect(sam.getByRole("heading", { name: "No access" })).toBeVisible();
  await expectAccessible(sam);
  await sam.screenshot({ path: path.join(shots, "member-blocked.png") });

  // Robin unblocks Sam from the settings.
  await robin.goto("/settings", { waitUntil: "networkidle" });
  await hydrated(robin);
  const blockedList = robin.getByRole("region", { name: "Blocked members" });
  await expect(blockedList.getByRole("link", { name: "Sam" })).toBeVisible();
  await blockedList.getByRole("button", { name: "Unblock Sam" }).click();
  await expect(blockedList.getByText("Sam is no longer blocked.")).toBeVisible();
  await expect(blockedList.getByText("You have not blocked anyone.")).toBeVisible();

  const open = await sam.goto(`/members/${robinId}`, { waitUntil: "networkidle" });
  expect(open?.status()).toBe(200);
  await expect(sam.getByRole("heading", { level: 1, name: /Robin/ })).toBeVisible();
  await robinContext.close();
  await sam.context().close();
});
