import path from "node:path";
import sharp from "sharp";
import { expect, expectAccessible, hydrated, message, newMember, test } from "./fixtures";
import { staffLoginInBrowser } from "./staff-helpers";

const shots = path.join(import.meta.dirname, "../test-results");

test("a moderator rejects a member's photo with a reason, and the member reads why in their language", async ({ browser }) => {
  test.slow(); // A member and a moderator, three pages, four axe scans.
  // A Dutch member adds a photo; the embedded site reviews after, so it is live at once.
  const member = await newMember(browser, "Nadia", { locale: "nl", autoLike: false });
  await member.page.goto("/profile");
  await hydrated(member.page);
  const photo = await sharp({ create: { width: 600, height: 750, channels: 3, background: "#a05a2c" } })
    .jpeg()
    .toBuffer();
  await member.page.locator("input[type=file]").setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: photo });
  await expect(member.page.getByText(message("nl", "profile.badge_main"), { exact: true })).toBeVisible();
  // And writes an about text.
  await member.page.locator("#profile-about").fill("Ik hou van lange wandelingen langs de zee.");
  await member.page.getByRole("button", { name: message("nl", "profile.save") }).click();
  await expect(member.page.getByText(message("nl", "profile.saved"))).toBeVisible();
  const userId = (await (await member.page.request.get("/api/user.php")).json()).user.id as number;

  // The moderator, in a browser of their own, opens the queue of this member.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await staffLoginInBrowser(staff, "moderator");
  const nav = staff.getByRole("navigation", { name: message("en", "staff.nav.label") });
  await nav.getByRole("link", { name: message("en", "staff.nav.moderation") }).click();
  await expect(staff.getByRole("heading", { level: 1, name: message("en", "staff.moderation.title") })).toBeVisible();
  await staff.goto(`/staff/moderation?member=${userId}`);
  await hydrated(staff);
  // Oldest first: the photo, then the text.
  await expect(staff.locator("li[data-item]")).toHaveCount(2);
  await expect(staff.locator("li[data-item]").nth(1)).toContainText("Ik hou van lange wandelingen langs de zee.");
  const item = staff.locator("li[data-item^='photo:']");
  await expect(item.getByRole("img", { name: message("en", "staff.moderation.photo_alt", { name: "Nadia" }) })).toBeVisible();
  await expect(item).toHaveAttribute("aria-current", "true");
  await expectAccessible(staff);
  await staff.screenshot({ path: path.join(shots, "staff-moderation.png"), fullPage: true });

  // r opens the reason picker; 2 picks "explicit"; Enter rejects.
  await staff.keyboard.press("r");
  const dialog = staff.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expectAccessible(staff, ".modal");
  await staff.keyboard.press("2");
  await expect(dialog.getByRole("radio", { name: new RegExp(message("en", "staff.moderation.reason.explicit")) })).toBeChecked();
  await staff.keyboard.press("Enter");
  await expect(staff.getByText(message("en", "staff.moderation.rejected"))).toBeVisible();
  // The text is left, and current: a approves it.
  await expect(staff.locator("li[data-item]")).toHaveCount(1);
  await expect(staff.locator("li[data-item^='about:']")).toHaveAttribute("aria-current", "true");
  await staff.keyboard.press("a");
  await expect(staff.getByText(message("en", "staff.moderation.empty"))).toBeVisible();

  // The member sees the photo rejected, and why, in Dutch; others no longer see it.
  await member.page.reload();
  await hydrated(member.page);
  const reason = message("nl", "profile.photo_rejected_reason", { reason: message("nl", "moderation.reason.explicit") });
  await expect(member.page.getByText(reason)).toBeVisible();
  await expect(member.page.getByText(message("nl", "profile.badge_rejected"), { exact: true })).toBeVisible();
  await expectAccessible(member.page);
  const own = (await (await member.page.request.get("/api/photos.php")).json()).photos as { url: string }[];
  const visitor = await browser.newContext();
  expect((await visitor.request.get(own[0]?.url ?? "/cdn/photos/none")).status()).toBe(404);
  await visitor.close();
  await staffContext.close();
  await member.page.context().close();
});
