import { expect, expectAccessible, hydrated, message, newMember, skipEntryWarning, test } from "./fixtures";

/** Issue #29: what a visitor meets on a profile, a chat address and the terms; what a page brings with it. */
test.beforeEach(async ({ context }) => skipEntryWarning(context));

test("a visitor's profile page has one call to action: sign up to meet them, with a login link beside it", async ({ page }) => {
  const search = await (await page.request.get("/api/members.php")).json();
  const { id, name } = search.profiles[0] as { id: number; name: string };
  await page.goto(`/members/${id}`);
  await hydrated(page);
  const main = page.getByRole("main");
  await expect(main.getByRole("link", { name: message("en", "member.visitor_signup", { name }) })).toHaveAttribute(
    "href",
    `/members/${id}/signup`,
  );
  // Not also "Login to like", "Send a message", "Send a gift": those were three more prompts to log in.
  await expect(main.getByRole("link", { name: message("en", "likes.login", { name }) })).toHaveCount(0);
  await expect(main.getByRole("button", { name: message("en", "member.action_message", { name }) })).toHaveCount(0);
  await expect(main.getByRole("button", { name: message("en", "member.action_gift", { name }) })).toHaveCount(0);
  await expect(main.locator(".btn-primary, .btn-outline-primary")).toHaveCount(1);
  await expect(main.getByRole("link", { name: "Log in" })).toHaveAttribute("href", "/login");
  await expectAccessible(page);
});

test("a visitor on a chat address gets the site's navigation with the login prompt", async ({ page }) => {
  await page.goto("/chats/1");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: message("en", "chat.login_required") })).toBeVisible();
  await expect(page.getByRole("link", { name: "Amoria home" })).toBeVisible();
  await expectAccessible(page);
});

test("the terms name the site without the test server's address", async ({ page }) => {
  await page.goto("/pages/terms");
  await expect(page.getByRole("main")).toContainText("These terms apply to Amoria, a dating and chat site");
  await expect(page.getByRole("main")).not.toContainText("127.0.0.1");
});

test("the swipe game comes with the page: its first card is in the server's HTML, not a spinner", async ({ browser }) => {
  const member = await newMember(browser, "Sam", { autoLike: false });
  const html = await (await member.page.request.get("/swipe-game")).text();
  const candidates = await (await member.page.request.get("/api/swipe.php")).json();
  const first = candidates.profiles[0] as { name: string };
  expect(html).toContain('class="swipe-card ');
  expect(html).toContain(`id="swipe-name"`);
  expect(html).toContain(first.name);
  expect(html).not.toContain(message("en", "swipe.loading"));
  await member.page.context().close();
});
