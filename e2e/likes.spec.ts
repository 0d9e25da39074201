import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, newMember, open, skipEntryWarning, test } from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");

/** The Likes link of the top navigation (its badge counts new likes). */
const likesLink = (page: Page) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Likes/ });

test("two members like each other: the second sees the match pop-up live in both tabs, the first sees the badge rise", async ({
  browser,
}) => {
  const ada = await newMember(browser, "Ada", { autoLike: false });
  const bo = await newMember(browser, "Bo", { autoLike: false });
  const boSecondTab = await bo.page.context().newPage();

  // Ada and Bo's second tab sit on the members page; neither reloads from here on.
  await open(ada.page, "/members");
  await open(boSecondTab, "/members");
  await expect(likesLink(ada.page)).toHaveText("Likes");

  // Ada likes Bo first.
  await open(ada.page, `/members/${bo.id}`);
  await expectAccessible(ada.page);
  await ada.page.getByRole("button", { name: "Like Bo" }).click();
  await expect(ada.page.getByRole("status").filter({ hasText: "You like Bo." })).toBeVisible();
  await expect(ada.page.getByRole("button", { name: "Unlike Bo" })).toBeVisible();
  // Bo's other tab learns of it live: the badge and the title count the new like.
  await expect(likesLink(boSecondTab)).toHaveText("Likes1");
  await expect(boSecondTab.getByLabel("1 new like")).toBeVisible();
  await expect(boSecondTab).toHaveTitle(/^\(1\) /);

  // Bo likes Ada back from her profile: the match pop-up in the tab that liked, and live in the other.
  await open(bo.page, `/members/${ada.id}`);
  await expect(bo.page.getByRole("status").filter({ hasText: "Ada likes you!" })).toBeVisible();
  await bo.page.getByRole("button", { name: "Like Ada back" }).click();
  const popup = bo.page.getByRole("dialog", { name: "New like" });
  await expect(popup).toContainText("You and Ada like each other. It's a match!");
  await expect(bo.page.locator(".modal")).toHaveCSS("opacity", "1");
  await expectAccessible(bo.page, ".modal");
  await bo.page.screenshot({ path: path.join(shots, "likes-match-popup.png") });
  await expect(popup.getByRole("button", { name: "Continue" })).toBeFocused();
  await bo.page.keyboard.press("Enter");
  await expect(popup).toBeHidden();
  await expect(bo.page.getByRole("dialog")).toHaveCount(0);
  await expect(bo.page.getByRole("status").filter({ hasText: "It's a match: you and Ada like each other." })).toBeVisible();

  const otherTabPopup = boSecondTab.getByRole("dialog", { name: "New like" });
  await expect(otherTabPopup).toContainText("You and Ada like each other.");
  await otherTabPopup.getByRole("button", { name: "Continue" }).click();
  await expect(otherTabPopup).toBeHidden();

  // Ada, still on Bo's profile without reloading: her badge rises and the action bar says it is a match.
  await expect(likesLink(ada.page)).toHaveText("Likes1");
  await expect(ada.page).toHaveTitle(/^\(1\) /);
  await expect(ada.page.getByRole("status").filter({ hasText: "It's a match: you and Bo like each other." })).toBeVisible();
  // Ada did not complete the match: no pop-up for her.
  await expect(ada.page.getByRole("dialog")).toHaveCount(0);

  await ada.page.context().close();
  await bo.page.context().close();
});

test("the likes overview lists new likes first, and opening one clears its flag and the badge", async ({ browser }) => {
  const cleo = await newMember(browser, "Cleo", { autoLike: false });
  const xavi = await newMember(browser, "Xavi", { autoLike: false });
  const yann = await newMember(browser, "Yann", { autoLike: false });

  // Xavi likes Cleo, then Yann does; Cleo opens Yann's profile, so Yann's like is no longer new.
  for (const liker of [xavi, yann]) {
    const answer = await liker.page.request.post("/api/like.php", { data: { id: cleo.id } });
    expect(answer.status()).toBe(200);
  }
  await open(cleo.page, "/likes");
  await expect(likesLink(cleo.page)).toHaveText("Likes2");
  await open(cleo.page, `/likes/m/${yann.id}`);
  await expect(cleo.page.getByRole("heading", { level: 1, name: /Yann/ })).toBeVisible();
  await expect(likesLink(cleo.page)).toHaveText("Likes1");

  // The older, still new like of Xavi comes before Yann's newer, seen one.
  await likesLink(cleo.page).click();
  await expect(cleo.page).toHaveURL(/\/likes$/);
  const heading = cleo.page.getByRole("heading", { name: "2 members like you." });
  await expect(heading).toBeVisible();
  const cards = cleo.page.locator("a.profile-card");
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText("Xavi");
  await expect(cards.nth(0)).toContainText("New");
  await expect(cards.nth(1)).toContainText("Yann");
  await expect(cards.nth(1)).not.toContainText("New");
  await expect(cleo.page.getByRole("link", { name: /Liked me/ })).toHaveAttribute("aria-current", "page");
  await expectAccessible(cleo.page);
  await cleo.page.screenshot({ path: path.join(shots, "likes-overview.png") });

  // Opening Xavi's card: the same profile screen at /likes/m/{id}, with the like back on offer.
  await cards.nth(0).click();
  await expect(cleo.page).toHaveURL(new RegExp(`/likes/m/${xavi.id}$`));
  await expect(cleo.page.getByRole("button", { name: "Like Xavi back" })).toBeVisible();
  await expect(likesLink(cleo.page)).toHaveText("Likes");
  await likesLink(cleo.page).click();
  await expect(cards).toHaveCount(2);
  await expect(cleo.page.getByText("New", { exact: true })).toHaveCount(0);

  // The other tabs: whom Cleo liked (nobody yet) and an unknown tab.
  await cleo.page.getByRole("link", { name: /I liked/ }).click();
  await expect(cleo.page.getByRole("heading", { name: "You have not liked anyone yet." })).toBeVisible();
  const unknown = await cleo.page.goto("/likes/friends");
  expect(unknown?.status()).toBe(404);
  await expect(cleo.page.getByText("This page could not be found")).toBeVisible();

  for (const member of [cleo, xavi, yann]) await member.page.context().close();
});

test("visitors are sent to the login from the likes pages and asked to log in to like", async ({ browser }) => {
  const dana = await newMember(browser, "Dana", { autoLike: false });
  const context = await browser.newContext();
  await skipEntryWarning(context);
  const visitor = await context.newPage();
  await open(visitor, "/likes");
  await expect(visitor).toHaveURL(/\/login$/);
  await open(visitor, "/swipe-game");
  await expect(visitor).toHaveURL(/\/login$/);
  // Spec §9: ?t= offers the like after t seconds; a visitor is asked to log in for it.
  await open(visitor, `/members/${dana.id}?t=1`);
  await expect(visitor.getByRole("link", { name: "Log in to like Dana's profile" }).first()).toHaveAttribute("href", "/login");
  const prompt = visitor.getByRole("dialog", { name: "Do you like Dana?" });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole("link", { name: "Log in to like Dana's profile" })).toBeVisible();
  await context.close();
  await dana.page.context().close();
});

test("the swipe game on a phone: like by button, key and swipe up to the day's 4 likes, then the limit and the premium offer", async ({
  browser,
}) => {
  const eve = await newMember(browser, "Eve", {
    autoLike: false,
    context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  });
  const page = eve.page;
  await open(page, "/swipe-game");
  await expect(page.getByText("4 likes left today")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "swipe-game-phone.png"), fullPage: true });

  const cardName = async () => (await page.locator("#swipe-name").innerText()).trim();
  const next = async (previous: string) => expect(page.locator("#swipe-name")).not.toHaveText(previous);

  // A pass by button, then likes by button, by the arrow key and by dragging the card right.
  let name = await cardName();
  await page.getByRole("button", { name: /^Pass on / }).click();
  await next(name);
  await expect(page.getByText("4 likes left today")).toBeVisible();

  name = await cardName();
  await page.getByRole("button", { name: /^Like / }).click();
  await next(name);
  await expect(page.getByText("3 likes left today")).toBeVisible();

  name = await cardName();
  await page.keyboard.press("ArrowRight");
  await next(name);
  await expect(page.getByText("2 likes left today")).toBeVisible();

  name = await cardName();
  const card = page.locator("article.swipe-card");
  await card.scrollIntoViewIfNeeded();
  const box = await card.boundingBox();
  if (!box) throw new Error("no card");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 3, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 + 160, box.y + box.height / 3, { steps: 4 });
  await page.mouse.up();
  await next(name);
  await expect(page.getByText("1 like left today")).toBeVisible();

  await page.keyboard.press("ArrowRight");
  await expect(page.getByText("You're out of likes for today.")).toBeVisible();
  await expect(page.getByText("No likes left today")).toBeVisible();
  await expect(page.getByText(/^New ones arrive at .+\.$/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Get Premium" }).last()).toHaveAttribute("href", "/premium");
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "swipe-game-limit-phone.png"), fullPage: true });

  // The limit holds after a reload, and the likes are in the overview's sent tab.
  await open(page, "/swipe-game");
  await expect(page.getByText("You're out of likes for today.")).toBeVisible();
  await open(page, "/likes/sent");
  await expect(page.getByRole("heading", { name: "You like 4 members." })).toBeVisible();
  await page.context().close();
});

test("the automatic like: a member who has liked gets a New like pop-up from a fictional profile, and the likes reload", async ({
  browser,
}) => {
  const finn = await newMember(browser, "Finn");
  const gus = await newMember(browser, "Gus", { autoLike: false });
  expect((await finn.page.request.post("/api/like.php", { data: { id: gus.id } })).status()).toBe(200);
  await open(finn.page, "/members");
  // Asked once a session, a few seconds after the start (spec §7's first-start delay).
  const popup = finn.page.getByRole("dialog", { name: "New like" });
  await expect(popup).toBeVisible({ timeout: 15_000 });
  await expect(popup).toContainText("likes you!");
  await expect(popup.getByRole("img", { name: "Fictional profile" })).toBeVisible();
  await expect(likesLink(finn.page)).toHaveText("Likes1");
  await popup.getByRole("button", { name: "Continue" }).click();
  await expect(popup).toBeHidden();
  // Not again in this session.
  await open(finn.page, "/members");
  await finn.page.waitForTimeout(7000);
  await expect(finn.page.getByRole("dialog")).toHaveCount(0);
  await finn.page.context().close();
  await gus.page.context().close();
});
