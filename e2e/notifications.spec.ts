import { randomUUID } from "node:crypto";
import { expect, expectAccessible, newMember, open, setAlertState, test } from "./fixtures";

/**
 * Issue #28 in the browser, as far as it goes without a push service: the push-enable alert (spec §2;
 * the site has a push key, Chromium can push, this device is not subscribed), and the in-page toasts a
 * member who is looking gets instead of a push or an e-mail, each opening what it announces.
 */
test("a member who is looking gets toasts for a like and a message, and opens the conversation from one", async ({ browser }) => {
  const ada = await newMember(browser, "Ada", { autoLike: false });
  const bo = await newMember(browser, "Bo", { autoLike: false });
  // The alerts come one at a time (issue #29): the add-photos alert, before push, is dismissed already.
  await setAlertState(bo.page, { dismissed: ["add-photos"] });
  await open(bo.page, "/members");

  // The push-enable alert: offered, and dismissed like the other alerts.
  const pushAlert = bo.page.getByRole("alert").filter({ hasText: "Get a notification on this device" });
  await expect(pushAlert).toBeVisible();
  await expect(pushAlert.getByRole("button", { name: "Turn on notifications" })).toBeEnabled();
  await expectAccessible(bo.page, "#warnings-header");
  await pushAlert.getByRole("button", { name: "Close" }).click();
  await expect(pushAlert).toHaveCount(0);

  // Ada likes Bo: a toast in Bo's page, in the toasts' live region.
  expect((await ada.page.request.post("/api/like.php", { data: { id: bo.id } })).status()).toBe(200);
  const likeToast = bo.page.getByRole("status").filter({ hasText: "Someone likes you!" });
  await expect(likeToast).toBeVisible();
  await expect(likeToast.getByRole("link", { name: "See your likes" })).toHaveAttribute("href", "/likes/received");

  // Ada writes: "New message from Ada." with a link that opens the conversation.
  const sent = await ada.page.request.post("/api/message.php", {
    data: { profile_id: bo.id, client_id: randomUUID(), text: "Hello Bo, coffee?" },
  });
  expect(sent.status()).toBe(200);
  const messageToast = bo.page.getByRole("status").filter({ hasText: "New message from Ada." });
  await expect(messageToast).toBeVisible();
  await expectAccessible(bo.page, ".toast-container");
  // The link opens the conversation within the app: the page (and its live connection) stays.
  await bo.page.evaluate(() => {
    (window as unknown as { samePage: boolean }).samePage = true;
  });
  await messageToast.getByRole("link", { name: "Open the conversation" }).click();
  await expect(bo.page).toHaveURL(/\/chats\/\d+$/);
  expect(await bo.page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
  await expect(messageToast).toHaveCount(0);
  await expect(bo.page.getByRole("log").getByText("Hello Bo, coffee?")).toBeVisible();

  // On that conversation's page, the next message shows in the conversation, not as a toast.
  await expect(bo.page.getByRole("textbox", { name: "Message to Ada" })).toBeVisible();
  const again = await ada.page.request.post("/api/message.php", {
    data: { profile_id: bo.id, client_id: randomUUID(), text: "Or tea?" },
  });
  expect(again.status(), await again.text()).toBe(200);
  await expect(bo.page.getByRole("log").getByText("Or tea?")).toBeVisible();
  await expect(bo.page.getByRole("status").filter({ hasText: "New message from Ada." })).toHaveCount(0);

  // Push on this device is a switch of the notification settings, off here (nothing subscribed).
  await open(bo.page, "/notifications");
  await expect(bo.page.getByRole("heading", { name: "Notifications on this device" })).toBeVisible();
  await expect(bo.page.getByRole("checkbox", { name: "New messages, likes and matches" })).not.toBeChecked();
  await expectAccessible(bo.page);

  await ada.page.context().close();
  await bo.page.context().close();
});
