import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, expectAccessible, message, newMember, open, test } from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");

/**
 * Issue #29: a free member learned of the 2-conversation limit (spec §6) only after typing and sending
 * a third first message. The profile and the chat footer say it before.
 */
test("a free member with two conversations is told of the limit on a third profile and in its chat, before typing", async ({
  browser,
}) => {
  const eva = await newMember(browser, "Eva", { autoLike: false });
  const page = eva.page;
  const search = await (await page.request.get("/api/members.php")).json();
  const [first, second, third] = (search.profiles as { id: number; name: string }[]).slice(0, 3);
  if (!first || !second || !third) throw new Error("the seed has profiles to search");
  for (const to of [first, second]) {
    const sent = await page.request.post("/api/message.php", {
      data: { profile_id: to.id, client_id: randomUUID(), text: "Hi!" },
    });
    expect(sent.status()).toBe(200);
  }
  const note = `As a free member you can chat in 2 conversations, and yours are taken. Get Premium to write to ${third.name} too.`;

  // The third profile: the note and Get Premium instead of the message and gift buttons.
  await open(page, `/members/${third.id}`);
  await expect(page.getByText(note)).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Get Premium" })).toHaveAttribute("href", "/premium");
  await expect(page.getByRole("link", { name: message("en", "member.action_message", { name: third.name }) })).toHaveCount(0);
  await expectAccessible(page);
  // One already written to: the buttons as before.
  await open(page, `/members/${first.id}`);
  await expect(page.getByRole("link", { name: message("en", "member.action_message", { name: first.name }) })).toBeVisible();
  await expect(page.getByText(/As a free member/)).toHaveCount(0);

  // The chat with the third: the footer says it, and there is nothing to type into.
  await open(page, `/members/${third.id}/chat`);
  await expect(page.getByText(note)).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Get Premium" })).toHaveAttribute("href", "/premium");
  await expect(page.getByRole("textbox", { name: message("en", "chat.message_label", { name: third.name }) })).toBeDisabled();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "chat-limit-before.png") });
  await page.context().close();
});
