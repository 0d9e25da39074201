import { expect, expectAccessible, newMember, open, test } from "./fixtures";

test("profile visitors: a free member sees the count and blurred cards, a premium member the visitor with a presence label", async ({
  browser,
  page,
  loginAs,
}) => {
  const free = await newMember(browser, "Ilse", { autoLike: false });
  const visitor = await newMember(browser, "Vesna", { autoLike: false });

  // Vesna opens Ilse's profile (twice: one visitor all the same), and her own (which leaves nothing).
  await open(visitor.page, `/members/${free.id}`);
  await open(visitor.page, `/members/${free.id}`);
  await open(visitor.page, `/members/${visitor.id}`);

  await open(free.page, "/visitors");
  await expect(free.page.getByRole("heading", { level: 1, name: "Who viewed my profile" })).toBeVisible();
  await expect(free.page.getByRole("heading", { name: "1 member viewed your profile in the last 90 days" })).toBeVisible();
  await expect(free.page.getByRole("note")).toContainText("Someone is curious about you.");
  await expect(free.page.getByRole("link", { name: "See who it was" })).toHaveAttribute("href", "/premium");
  await expect(free.page.locator(".visitor-placeholder")).toHaveCount(1);
  // The free member's page names no one: the server sent no identity.
  await expect(free.page.getByText("Vesna")).toHaveCount(0);
  await expectAccessible(free.page);

  // The premium demo member: Vesna visits, and is on the site now (her page's socket).
  await loginAs("premium");
  const premiumId = (await (await page.request.get("/api/profile.php")).json()).profile.id as number;
  await open(visitor.page, `/members/${premiumId}`);
  await open(page, "/visitors");
  const card = page.getByRole("link", { name: /Vesna/ });
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute("href", `/members/${visitor.id}`);
  // Online, or active today when her reload's closing socket was counted last: a label either way, never a time.
  await expect(card).toContainText(/Online|Active today/);
  await expect(card).toContainText(/Visited /);
  await expect(page.locator(".visitor-placeholder")).toHaveCount(0);
  await expectAccessible(page);

  // The account menu leads here.
  await page.getByRole("button", { name: /Account/ }).click();
  await expect(page.getByRole("link", { name: "Profile visitors" })).toHaveAttribute("href", "/visitors");

  await free.page.context().close();
  await visitor.page.context().close();
});
