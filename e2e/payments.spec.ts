import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, newMember, open, skipEntryWarning, test, watchConsole } from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");

/** A demo profile with a premium-only photo, as `page`'s member sees it (locked for a free member). */
async function profileWithPremiumPhoto(page: Page): Promise<number> {
  for (let candidate = 3; candidate < 80; candidate++) {
    const response = await page.request.get(`/api/member.php?id=${candidate}`);
    if (!response.ok()) continue;
    const photos = (await response.json()).profile.photos as { private: boolean; locked: boolean }[];
    if (photos.some((photo) => photo.private && photo.locked)) return candidate;
  }
  throw new Error("no demo profile with a premium-only photo");
}

const navigation = (page: Page) => page.getByRole("navigation", { name: "Main" });

/** From /credits to the sandbox's checkout page: package, method, "Pay". */
async function payOnSandbox(page: Page, method: string): Promise<void> {
  await open(page, "/credits");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByRole("radio", { name: /500 credits/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/credits\/3$/);
  await page.getByRole("radio", { name: method }).check();
  // A new member has the time bonus pre-selected; this test buys at the full price.
  await page.getByRole("button", { name: "Choose a discount code" }).click();
  const selector = page.getByRole("dialog", { name: "Choose a discount" });
  await selector.getByRole("radio", { name: "No discount" }).check();
  await selector.getByRole("button", { name: "Done" }).click();
  await expect(selector).toBeHidden();
  await page.getByRole("button", { name: "Pay €39.99" }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/tr_sbx_/);
  await expect(page.getByRole("heading", { name: "Test payment" })).toBeVisible();
  await expect(page.getByTestId("sandbox-amount")).toHaveText("€39.99");
}

test("a free member buys credits with iDEAL on the sandbox: processing, the toast, credits in the navigation, premium at once", async ({
  browser,
}) => {
  const buyer = await newMember(browser, "Pim", { autoLike: false });
  const page = buyer.page;
  const problems = watchConsole(page);
  const locked = await profileWithPremiumPhoto(page);

  // The premium page says what premium gives and leads to the packages.
  await open(page, "/premium");
  await expect(page.getByText(/46%/)).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "payments-premium.png"), fullPage: true });
  await expect(navigation(page).getByRole("link", { name: "Get Premium" })).toBeVisible();

  await payOnSandbox(page, "iDEAL");
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "payments-sandbox-checkout.png") });
  await page.getByRole("button", { name: "Paid" }).click();

  // Back on the site before the provider has told it: processing, then the order completes by itself.
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  const order = Number(page.url().split("/").pop());
  await expect(page.getByText("Processing your payment")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "payments-processing.png") });
  await expect(page.getByText(`Order #${order} is completed`)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("main").getByText("500 credits have been added")).toBeVisible();
  await page.screenshot({ path: path.join(shots, "payments-completed.png") });
  await expectAccessible(page);

  // Premium at once: Credits in the navigation instead of Get Premium, the premium-only photo unlocked.
  await expect(navigation(page).getByRole("link", { name: "Credits" })).toBeVisible();
  await expect(navigation(page).getByRole("link", { name: "Get Premium" })).toHaveCount(0);
  const user = (await (await page.request.get("/api/user.php")).json()).user;
  expect(user).toMatchObject({ paid_user: true, credits: 520 });
  await open(page, `/members/${locked}`);
  await expect(page.locator("article")).toBeVisible();
  await expect(page.locator(".member-photo-locked")).toHaveCount(0);

  // The history lists the order as completed.
  await open(page, "/transactions");
  await expect(page.getByRole("link", { name: `Order #${order}` })).toBeVisible();
  await expectAccessible(page);
  expect(problems).toEqual([]);
});

test("a cancelled payment adds nothing, and 'Try again' pays that same order again (issue #29)", async ({ browser }) => {
  const buyer = await newMember(browser, "Noor", { autoLike: false });
  const page = buyer.page;
  await payOnSandbox(page, "Credit card");
  await page.getByRole("button", { name: "Cancelled" }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  const cancelled = Number(page.url().split("/").pop());
  await expect(page.getByText("Payment failed or has been cancelled.")).toBeVisible({ timeout: 20_000 });
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "payments-failed.png") });
  expect((await (await page.request.get("/api/user.php")).json()).user).toMatchObject({ paid_user: false, credits: 20 });
  await expect(page.getByRole("link", { name: "Choose another package" })).toHaveAttribute("href", "/credits");

  // Straight back to the provider with the same package, method and price: no package choice again.
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/tr_sbx_/);
  await expect(page.getByTestId("sandbox-amount")).toHaveText("€39.99");
  await page.getByRole("button", { name: "Paid" }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  const retried = Number(page.url().split("/").pop());
  expect(retried).not.toBe(cancelled);
  await expect(page.getByText(`Order #${retried} is completed`)).toBeVisible({ timeout: 20_000 });
  expect(await (await page.request.get(`/api/payment.php?id=${retried}`)).json()).toMatchObject({
    credits: 500,
    amount: 39.99,
    method: "creditcard",
    status: "paid",
  });
  expect((await (await page.request.get("/api/user.php")).json()).user).toMatchObject({ paid_user: true, credits: 520 });
});

test("'Buy credits' from a chat leads back to that conversation after paying (issue #29)", async ({ browser }) => {
  const buyer = await newMember(browser, "Mila", { autoLike: false });
  const page = buyer.page;
  const search = await (await page.request.get("/api/members.php")).json();
  const chat = `/members/${search.profiles[0].id as number}/chat`;
  // The conversation's "Buy credits" link (e2e/chat.spec.ts checks it) names the chat as ?return=.
  await open(page, `/credits?return=${encodeURIComponent(chat)}`);
  await expect(page.getByRole("radio", { name: /500 credits/ })).toBeChecked();
  await page.getByRole("button", { name: "Continue" }).click();
  const withReturn = `?return=${encodeURIComponent(chat)}`;
  await expect(page).toHaveURL(`/credits/3${withReturn}`);
  // A second thought on the way (the checkout's "Choose another package") keeps the way back too.
  await page.getByRole("link", { name: "Choose another package" }).click();
  await expect(page).toHaveURL(`/credits${withReturn}`);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`/credits/3${withReturn}`);
  await page.getByRole("radio", { name: "iDEAL" }).check();
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/tr_sbx_/);
  await page.getByRole("button", { name: "Paid" }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  await expect(page.getByRole("main").getByText("500 credits have been added")).toBeVisible({ timeout: 20_000 });
  await page.getByRole("link", { name: "Back to where you were" }).click();
  await expect(page).toHaveURL(new RegExp(`${chat}$`));
});

test("pricing shows packages, costs and methods to a visitor", async ({ page }) => {
  await skipEntryWarning(page.context());
  await open(page, "/pricing");
  await expect(page.getByText("€39.99").first()).toBeVisible();
  await expect(page.getByText("A chat message")).toBeVisible();
  await expect(page.getByRole("main").getByText("14 day free returns")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "payments-pricing.png"), fullPage: true });
});
