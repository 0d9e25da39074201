import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, expectAccessible, message, newMember, open, skipEntryWarning, test } from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");
const LOCALES = ["en", "nl", "de", "es", "fr", "it", "pl"];

/** A seeded member a visitor sees in the search, with an approved main photo. */
async function seededMember(request: APIRequestContext): Promise<{ id: number; name: string }> {
  const { profiles } = (await (await request.get("/api/members.php")).json()) as {
    profiles: { id: number; name: string; main_image: unknown }[];
  };
  const member = profiles.find((p) => p.main_image) ?? profiles[0];
  if (!member) throw new Error("the seed has no members");
  return member;
}

test.beforeEach(async ({ context }) => skipEntryWarning(context));

test("a visitor lands on a member's page and signs up via that profile", async ({ page }) => {
  const { id, name } = await seededMember(page.request);
  await open(page, `/members/${id}/landing`);
  await expect(page.getByRole("heading", { level: 1, name: `Start chatting with ${name}` })).toBeVisible();
  await expect(page.getByRole("img", { name: `Photo of ${name}` })).toBeVisible();
  // Spec §1: the free-message allowance of a signup via a profile (20 signup credits, 10 a message).
  await expect(page.getByText("Your first 2 messages are free: 20 credits on us.")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "member-landing.png"), fullPage: true });
  await page.getByRole("link", { name: `Sign up to chat with ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/members/${id}/signup$`));
  await expect(page.getByRole("heading", { level: 1, name: `Sign up to chat with ${name}` })).toBeVisible();
});

test("landing2 picks its campaign angle by slug and falls back for unknown ones", async ({ page }) => {
  const { id, name } = await seededMember(page.request);
  await open(page, `/members/${id}/landing2/date`);
  await expect(page.getByRole("heading", { level: 1, name: `${name} is looking for a date` })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: `Send ${name} your first message` })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "member-landing2.png"), fullPage: true });
  await open(page, `/members/${id}/landing2/no-such-campaign`);
  await expect(page.getByRole("heading", { level: 1, name: `Start chatting with ${name}` })).toBeVisible();
});

test("on landing3 the visitor writes a first message, which leads to the signup", async ({ page }) => {
  const { id, name } = await seededMember(page.request);
  await open(page, `/members/${id}/landing3/nearby`);
  await expect(page.getByRole("heading", { level: 1, name: `Meet ${name} and other singles near you` })).toBeVisible();
  await page.getByLabel(`Your first message to ${name}`).fill("Hi! I like your profile.");
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "member-landing3.png"), fullPage: true });
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page).toHaveURL(new RegExp(`/members/${id}/signup$`));
});

test("every landing reads in all seven languages", async ({ page, baseURL }) => {
  const { id, name } = await seededMember(page.request);
  const headings = new Set<string>();
  for (const locale of LOCALES) {
    await page.context().addCookies([{ name: "i18n_redirected", value: locale, url: baseURL as string }]);
    for (const design of ["landing", "landing2/chat", "landing3"]) {
      const response = await page.goto(`/members/${id}/${design}`);
      expect(response?.status(), `${locale} ${design}`).toBe(200);
    }
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    // The landing's own description replaces the site's: one description, in the page's language.
    await expect(page.locator('meta[name="description"]')).toHaveCount(1);
    const heading = message(locale, "memberLanding.headline_chat", { name });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    headings.add(heading);
  }
  expect(headings.size).toBe(LOCALES.length);
});

test("unknown and hidden members have no landing, and members go to the profile itself", async ({ page, browser }) => {
  for (const design of ["landing", "landing2", "landing3/date"]) {
    expect((await page.request.get(`/members/999999999/${design}`)).status()).toBe(404);
  }
  const hidden = await newMember(browser, "Hidden");
  expect((await page.request.get(`/members/${hidden.id}/landing`)).status()).toBe(200);
  expect((await hidden.page.request.put("/api/invisible.php", { data: { invisible: true } })).ok()).toBe(true);
  expect((await page.request.get(`/members/${hidden.id}/landing`)).status()).toBe(404);
  expect((await page.request.get(`/members/${hidden.id}/landing3`)).status()).toBe(404);

  const { id } = await seededMember(page.request);
  await hidden.page.goto(`/members/${id}/landing2`);
  await expect(hidden.page).toHaveURL(new RegExp(`/members/${id}$`));
  await hidden.page.context().close();
});

test("the profile screen shows the site's partner tiles when member_resell is on", async ({ page, loginAs }) => {
  await loginAs("free");
  await open(page, "/profile");
  const tiles = page.getByRole("region", { name: "From our partners" });
  await expect(tiles.getByRole("link", { name: /Visit LiveCams/ })).toHaveAttribute("href", "https://cams.example/?ref=amoria");
  await expect(tiles.getByRole("link", { name: /Visit Singles Europe/ })).toHaveAttribute("target", "_blank");
  await tiles.scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "profile-resell.png") });
});
