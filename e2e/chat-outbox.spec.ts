import { randomUUID } from "node:crypto";
import { expect, message, newMember, open, test } from "./fixtures";

/**
 * Issue #29: a message the server refused vanished on reload. The outbox is kept in the browser's
 * storage per member and conversation partner, with each message's client_id, until the server has
 * it or the member removes it; a message sent again after a reload is stored and charged once.
 */
test("a failed message survives a reload until removed, and a message sent again after a reload is stored once", async ({
  browser,
}) => {
  const ada = await newMember(browser, "Ada", { autoLike: false });
  const bo = await newMember(browser, "Bo", { autoLike: false });
  const page = ada.page;
  const userId = (await (await page.request.get("/api/user.php")).json()).user.id as number;
  const key = `chat-outbox:${userId}:${bo.id}`;
  const bubble = (text: string) => page.locator(".chat-bubble", { hasText: text });
  const field = page.getByRole("textbox", { name: message("en", "chat.message_label", { name: "Bo" }) });

  // A page that was closed while its first message was on its way: the server stored it, the page
  // never heard. The next page sends it again with the same client_id.
  const clientId = randomUUID();
  const first = await page.request.post("/api/message.php", {
    data: { profile_id: bo.id, client_id: clientId, text: "Hello Bo" },
  });
  expect(first.status()).toBe(200);
  expect((await first.json()).credits).toBe(10);
  await page.evaluate(
    ({ storageKey, id }) =>
      window.localStorage.setItem(
        storageKey,
        JSON.stringify([
          {
            clientId: id,
            content: { kind: "text", text: "Hello Bo" },
            createdAt: new Date().toISOString(),
            status: "queued",
            error: null,
          },
        ]),
      ),
    { storageKey: key, id: clientId },
  );
  await open(page, `/members/${bo.id}/chat`);
  await expect(bubble("Hello Bo").getByRole("img", { name: message("en", "chat.status_sent") })).toBeVisible();
  await expect.poll(() => page.evaluate((storageKey) => window.localStorage.getItem(storageKey), key)).toBeNull();
  await expect(bubble("Hello Bo")).toHaveCount(1);
  // Charged once: 20 at signup, 10 for the one message.
  expect((await (await page.request.get("/api/user.php")).json()).user.credits).toBe(10);

  // The second message takes the last credits; the third is refused and stays with its reason.
  await field.fill("Are you there?");
  await field.press("Enter");
  await expect(bubble("Are you there?").getByRole("img", { name: message("en", "chat.status_sent") })).toBeVisible();
  await field.fill("One more?");
  await field.press("Enter");
  const failed = bubble("One more?").getByRole("alert");
  await expect(failed).toBeVisible();

  // A reload keeps it, failed, with its reason and the way to retry or remove it.
  await page.reload();
  await open(page, page.url());
  await expect(failed).toBeVisible();
  await expect(failed.getByRole("button", { name: message("en", "chat.retry_send") })).toBeVisible();
  await expect(bubble("One more?")).toHaveCount(1);

  // Removed, it is gone for good.
  await failed.getByRole("button", { name: message("en", "chat.discard") }).click();
  await expect(bubble("One more?")).toHaveCount(0);
  await open(page, `/members/${bo.id}/chat`);
  await expect(bubble("Are you there?")).toBeVisible();
  await expect(bubble("One more?")).toHaveCount(0);
  expect(await page.evaluate((storageKey) => window.localStorage.getItem(storageKey), key)).toBeNull();
  expect((await (await page.request.get("/api/user.php")).json()).user.credits).toBe(0);
  await page.context().close();
  await bo.page.context().close();
});
