import { randomUUID } from "node:crypto";
import { BAN_REASONS } from "@app/contract";
import { expect, expectAccessible, hydrated, message, newMember, open, test } from "./fixtures";
import { staffLoginInBrowser } from "./staff-helpers";

const SHOT = "/work/wt/shots/reports.png";

test("a member reports a profile; a moderator sees it in the queue and bans; the banned member's tab lands on /pages/ban", async ({
  browser,
  page,
}) => {
  test.slow();
  // The reported member keeps a tab open on the members area (their socket is connected).
  const mallory = await newMember(browser, "Mallory", { autoLike: false });
  await open(mallory.page, "/members");
  const rita = await newMember(browser, "Rita", { autoLike: false });

  // Rita reports Mallory's profile: Report beside Block, a reason from the list, her own words.
  await open(rita.page, `/members/${mallory.id}`);
  await expectAccessible(rita.page);
  await rita.page.getByRole("button", { name: message("en", "report.profile_action", { name: "Mallory" }) }).click();
  const dialog = rita.page.getByRole("dialog", { name: message("en", "report.title_profile", { name: "Mallory" }) });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("radio", { name: message("en", "moderation.report_reason.scam") }).check();
  await dialog.getByLabel(message("en", "report.text_label")).fill("Asked me for money for a plane ticket");
  await expect(rita.page.locator(".modal")).toHaveCSS("opacity", "1");
  await expectAccessible(rita.page, ".modal");
  await dialog.getByRole("button", { name: message("en", "report.submit") }).click();
  await expect(dialog).toBeHidden();
  await expect(rita.page.getByRole("status").filter({ hasText: message("en", "report.done") })).toBeVisible();
  await expectAccessible(rita.page);

  // Mallory writes to Rita; Rita reports the message from its menu in the chat.
  const sent = await mallory.page.request.post("/api/message.php", {
    data: { client_id: randomUUID(), text: "Send me 200 euros for the ticket", profile_id: rita.id },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  await open(rita.page, `/chats/${(await sent.json()).conversation_id}`);
  await rita.page.getByRole("button", { name: message("en", "report.message_menu") }).click();
  await rita.page.getByRole("button", { name: message("en", "report.message_action") }).click();
  const messageDialog = rita.page.getByRole("dialog", { name: message("en", "report.title_message", { name: "Mallory" }) });
  await messageDialog.getByRole("radio", { name: message("en", "moderation.report_reason.scam") }).check();
  await expect(rita.page.locator(".modal")).toHaveCSS("opacity", "1");
  await expectAccessible(rita.page, ".modal");
  await messageDialog.getByRole("button", { name: message("en", "report.submit") }).click();
  await expect(rita.page.getByRole("status").filter({ hasText: message("en", "report.message_done") })).toBeVisible();
  await expectAccessible(rita.page);

  // A moderator finds it in the queue, keyboard first.
  await staffLoginInBrowser(page, "moderator");
  await page
    .getByRole("navigation", { name: message("en", "staff.nav.label") })
    .getByRole("link", { name: message("en", "staff.nav.reports") })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: message("en", "staff.reports.title") })).toBeVisible();
  await hydrated(page);
  const row = page.getByRole("button", {
    name: new RegExp(message("en", "staff.reports.report_of_profile", { name: "Mallory" })),
  });
  await expect(row).toBeVisible();
  // j moves down the queue (oldest first) until the report is the selected one.
  for (let i = 0; i < 50 && (await row.getAttribute("aria-current")) !== "true"; i++) await page.keyboard.press("j");
  await expect(row).toHaveAttribute("aria-current", "true");
  const detail = page.locator("article");
  await expect(detail).toContainText("Asked me for money for a plane ticket");
  await expect(detail).toContainText(message("en", "moderation.report_reason.scam"));
  await expect(page.getByText(message("en", "staff.reports.shortcuts"))).toBeVisible();
  await page.keyboard.press("a");
  await expect(row).toContainText(message("en", "staff.reports.status.in_progress"));
  await page.keyboard.press("b");
  const ban = page.getByRole("form", { name: message("en", "staff.reports.ban_title") });
  await expect(ban).toBeVisible();
  await ban.getByLabel(message("en", "staff.reports.ban_reason")).selectOption(BAN_REASONS[2]);
  await ban.getByLabel(message("en", "staff.reports.ban_note")).fill("Scam pattern seen before");
  await expectAccessible(page);
  await page.screenshot({ path: SHOT, fullPage: true });
  await ban.getByRole("button", { name: message("en", "staff.reports.ban_submit") }).click();
  await expect(ban).toBeHidden();
  // Closed: it leaves the "to handle" view; the report of the message waits, with the message as it was.
  await expect(row).toHaveCount(0);
  const messageRow = page.getByRole("button", {
    name: new RegExp(message("en", "staff.reports.report_of_message", { name: "Mallory" })),
  });
  await messageRow.click();
  await expect(page.locator("article")).toContainText("Send me 200 euros for the ticket");

  // Mallory's open tab is taken to the ban page, which says why in her language.
  await expect(mallory.page).toHaveURL(/\/pages\/ban$/, { timeout: 15_000 });
  const notice = mallory.page.getByTestId("ban-notice");
  await expect(notice).toContainText(message("en", "moderation.ban.title"));
  await expect(notice).toContainText(
    message("en", "moderation.ban.reason", { reason: message("en", "moderation.ban_reason.scam") }),
  );
  await expect(notice).toContainText(message("en", "moderation.ban.permanent"));
  await expectAccessible(mallory.page);
  // The old cookie opens nothing any more.
  const call = await mallory.page.request.get("/api/chats.php");
  expect(call.status()).toBe(403);
  expect((await call.json()).error).toBe("account_banned");
  // And Rita no longer finds Mallory's profile.
  expect((await rita.page.request.get(`/api/member.php?id=${mallory.id}`)).status()).toBe(404);
});
