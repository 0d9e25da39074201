import path from "node:path";
import type { Page, WebSocket } from "@playwright/test";
import sharp from "sharp";
import { DEMO, expect, expectAccessible, memberInNewContext, message, newMember, open, test, watchConsole } from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");

/** The message field of the open conversation. */
const field = (page: Page, locale: string, name: string) =>
  page.getByRole("textbox", { name: message(locale, "chat.message_label", { name }) });

for (const locale of ["en", "nl"]) {
  test(`[${locale}] two members chat live: the message arrives with an unread badge, opening it marks it read, typing shows`, async ({
    browser,
  }) => {
    test.slow(); // Two members signed up, three pages, four axe scans: 46 s of 60 in a CI run on a busy box.
    const ada = await newMember(browser, "Ada", { autoLike: false, locale });
    const bo = await newMember(browser, "Bo", { autoLike: false, locale });
    const adaProblems = watchConsole(ada.page);
    const boProblems = watchConsole(bo.page);
    const t = (id: string, values: Record<string, string> = {}) => message(locale, id, values);

    // Bo waits on the (empty) conversation list, and in a second tab on the members page; Ada opens an
    // empty conversation with Bo.
    const boSearch = await bo.page.context().newPage();
    await open(boSearch, "/members");
    const messagesLink = boSearch
      .getByRole("navigation", { name: t("nav.main") })
      .getByRole("link", { name: new RegExp(`^${t("nav.messages")}`) });
    await expect(messagesLink).toHaveText(t("nav.messages"));
    await open(bo.page, "/chats");
    await expect(bo.page.getByText(t("chat.list_empty"))).toBeVisible();
    const adaSockets: WebSocket[] = [];
    let adaGreeted = false;
    ada.page.on("websocket", (socket) => {
      adaSockets.push(socket);
      socket.on("framereceived", (frame) => {
        if (String(frame.payload).includes('"type":"hello"')) adaGreeted = true;
      });
    });
    await open(ada.page, `/members/${bo.id}/chat`);
    await expect(ada.page.getByText(t("chat.empty", { name: "Bo" }))).toBeVisible();
    await expectAccessible(ada.page);

    // The icebreaker modal fills the field; Ada writes her own line instead and sends it with Enter.
    await ada.page.getByRole("button", { name: t("chat.icebreaker_open") }).click();
    const icebreakers = ada.page.getByRole("dialog", { name: t("chat.icebreaker_title", { name: "Bo" }) });
    await expect(icebreakers).toBeVisible();
    // Scanned once faded in (colours are judged mid-animation otherwise).
    await expect(ada.page.locator(".modal")).toHaveCSS("opacity", "1");
    await expectAccessible(ada.page, ".modal");
    await icebreakers.getByRole("button", { name: t("chat.icebreaker_2") }).click();
    await expect(icebreakers).toBeHidden();
    await expect(field(ada.page, locale, "Bo")).toHaveValue(t("chat.icebreaker_2"));
    await expect(field(ada.page, locale, "Bo")).toBeFocused();
    // The message goes over Ada's open live connection (a `send` frame), not as a request of its own.
    const framesSent: string[] = [];
    for (const socket of adaSockets) socket.on("framesent", (frame) => framesSent.push(String(frame.payload)));
    await expect.poll(() => adaGreeted).toBe(true);
    const posts: string[] = [];
    ada.page.on("request", (request) => {
      if (request.url().includes("/api/message.php")) posts.push(request.url());
    });
    await field(ada.page, locale, "Bo").fill("Hello Bo, nice to meet you!");
    await field(ada.page, locale, "Bo").press("Enter");
    const adaBubble = ada.page.locator(".chat-bubble", { hasText: "Hello Bo, nice to meet you!" });
    await expect(adaBubble.getByRole("img", { name: t("chat.status_sent") })).toBeVisible();
    expect(
      framesSent.filter((frame) => frame.includes('"type":"send"') && frame.includes("Hello Bo, nice to meet you!")),
    ).toHaveLength(1);
    expect(posts).toEqual([]);

    // Bo's list shows it live, with the unread count and the title prefix.
    const entry = bo.page.getByRole("link", { name: /Ada/ });
    await expect(entry).toContainText("Hello Bo, nice to meet you!");
    await expect(entry.locator(".badge")).toHaveText("1");
    await expect(bo.page).toHaveTitle(/^\(1\) /);
    // The top navigation's Messages badge in the other tab, live too.
    await expect(messagesLink).toHaveText(`${t("nav.messages")}1`);
    await expectAccessible(bo.page);
    await bo.page.screenshot({ path: path.join(shots, `chat-list-${locale}.png`) });

    // Bo opens it: Ada's message shows as read on her side, without reloading.
    await entry.click();
    await expect(bo.page).toHaveURL(/\/chats\/\d+$/);
    await expect(bo.page.locator(".chat-bubble", { hasText: "Hello Bo, nice to meet you!" })).toBeVisible();
    await expect(adaBubble.getByRole("img", { name: t("chat.status_read") })).toBeVisible();
    await expect(entry.locator(".badge")).toHaveCount(0);
    await expect(bo.page).not.toHaveTitle(/^\(/);
    await expect(messagesLink).toHaveText(t("nav.messages"));
    await expect(bo.page.getByText(t("chat.today"))).toBeVisible();
    await expectAccessible(bo.page);

    // Ada types: Bo sees the indicator; it goes when she sends, and her message arrives live.
    await field(ada.page, locale, "Bo").pressSequentially("Are you free on Sat");
    await expect(bo.page.getByText(t("chat.typing", { name: "Ada" }))).toBeVisible();
    await field(ada.page, locale, "Bo").pressSequentially("urday?");
    await field(ada.page, locale, "Bo").press("Enter");
    await expect(bo.page.locator(".chat-bubble", { hasText: "Are you free on Saturday?" })).toBeVisible();
    await expect(bo.page.getByText(t("chat.typing", { name: "Ada" }))).toBeHidden();
    // Bo has it open, so it is read at once.
    await expect(
      ada.page
        .locator(".chat-bubble", { hasText: "Are you free on Saturday?" })
        .getByRole("img", { name: t("chat.status_read") }),
    ).toBeVisible();
    await bo.page.screenshot({ path: path.join(shots, `chat-conversation-${locale}.png`) });

    // Ada started with the 20 credits of a new member and paid 10 for each message: nothing is left
    // for a third, so she is offered credits, and the message stays with the reason.
    await field(ada.page, locale, "Bo").fill("One more?");
    await field(ada.page, locale, "Bo").press("Enter");
    await expect(ada.page.getByRole("link", { name: t("chat.buy_credits") })).toHaveAttribute(
      "href",
      `/credits?return=${encodeURIComponent(`/members/${bo.id}/chat`)}`,
    );
    await expect(ada.page.locator(".chat-bubble", { hasText: "One more?" }).getByRole("alert")).toBeVisible();

    // The refused send is the only failed request (the browser logs it); nothing else went wrong.
    expect(adaProblems.filter((problem) => !problem.includes("status of 402"))).toEqual([]);
    expect(boProblems).toEqual([]);
    await ada.page.context().close();
    await bo.page.context().close();
  });
}

test("a conversation on a phone: the list and the conversation are two screens, deleting asks first", async ({ browser }) => {
  const cleo = await newMember(browser, "Cleo", {
    autoLike: false,
    context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  });
  const dan = await newMember(browser, "Dan", { autoLike: false });
  const sent = await dan.page.request.post("/api/message.php", {
    data: { profile_id: cleo.id, client_id: crypto.randomUUID(), text: "Hi Cleo!" },
  });
  expect(sent.status()).toBe(200);

  await open(cleo.page, "/chats");
  const entry = cleo.page.locator(".chat-list-link", { hasText: "Dan" });
  await entry.click();
  await expect(cleo.page.getByRole("heading", { name: "Dan" })).toBeVisible();
  // The list is not on the conversation's screen; the back button returns to it.
  await expect(entry).toBeHidden();
  const footer = cleo.page.locator(".chat-footer");
  const box = await footer.boundingBox();
  expect(box && box.y + box.height).toBeLessThanOrEqual(844);
  await expectAccessible(cleo.page);
  await cleo.page.screenshot({ path: path.join(shots, "chat-conversation-phone.png") });
  await cleo.page.getByRole("link", { name: "Back to the conversations" }).click();
  await expect(entry).toBeVisible();

  // Deleting: the modal first, then the conversation leaves the list at once.
  await cleo.page.getByRole("button", { name: "Delete the conversation with Dan" }).click();
  const dialog = cleo.page.getByRole("dialog", { name: "Delete conversation?" });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expect(cleo.page.locator(".modal")).toHaveCSS("opacity", "1");
  await expectAccessible(cleo.page, ".modal");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(entry).toHaveCount(0);
  await open(cleo.page, "/chats");
  await expect(entry).toHaveCount(0);

  // Visitors are asked to log in.
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await open(page, "/chats");
  await expect(page.getByText("You need to be logged in to chat")).toBeVisible();
  // The login link in the page, beside the one of the site's navigation (issue #29: visitors get it too).
  await expect(page.getByRole("main").getByRole("link", { name: "Login" }).last()).toHaveAttribute("href", "/login");
  await visitor.close();
  await cleo.page.context().close();
  await dan.page.context().close();
});

test("a photo, a gift and a GIF go from one server node to a member on the other, each paid once", async ({ browser }) => {
  // Alex (premium demo, 500 credits) on the first node; Bo, new, on the second one (itself on PGlite).
  const bo = await newMember(browser, "Bo", { autoLike: false, context: { baseURL: process.env.E2E_SECOND_NODE_URL } });
  const alex = await memberInNewContext(browser, DEMO.premium.email, DEMO.premium.password);
  const alexId = (await (await alex.request.get("/api/profile.php")).json()).profile.id as number;
  await alex.context().addInitScript((id) => window.sessionStorage.setItem(`auto-like-asked:${id}`, "1"), alexId);
  const alexProblems = watchConsole(alex);
  const boProblems = watchConsole(bo.page);

  // The profile's "Send a gift" opens the conversation with the picker.
  await open(alex, `/members/${bo.id}`);
  await alex.getByRole("link", { name: "Send Bo a gift" }).click();
  const gifts = alex.getByRole("dialog", { name: "Send Bo a gift" });
  await expect(gifts.getByRole("list", { name: "Choose a gift" }).getByRole("button")).toHaveCount(14);
  await expect(alex.locator(".modal")).toHaveCSS("opacity", "1");
  // Scanned with the pointer on a gift: its price must stay readable on the hover fill.
  await gifts.getByRole("button", { name: /Champagne/ }).hover();
  await expectAccessible(alex, ".modal");
  await gifts.getByRole("button", { name: /Rose/ }).click();
  await gifts.getByLabel("Add a message (optional)").fill("For you");
  await gifts.getByRole("button", { name: "Send", exact: true }).click();
  await expect(gifts).toBeHidden();
  const giftBubble = alex.locator(".chat-bubble", { hasText: "For you" });
  await expect(giftBubble.getByRole("img", { name: "Sent" })).toBeVisible();

  // Bo, on the other node, has it in his list and opens it.
  await open(bo.page, "/chats");
  await bo.page.locator(".chat-list-link", { hasText: "Alex" }).click();
  await expect(bo.page.locator(".chat-bubble", { hasText: "For you" })).toContainText("Rose");

  // A photo: Bo sees it live, and it loads (it is served to the two of them only).
  const chooser = alex.waitForEvent("filechooser");
  await alex.getByRole("button", { name: /^Send a photo/ }).click();
  await (await chooser).setFiles({
    name: "sunset.jpg",
    mimeType: "image/jpeg",
    buffer: await sharp({ create: { width: 640, height: 480, channels: 3, background: "#e07a5f" } })
      .jpeg()
      .toBuffer(),
  });
  const photo = bo.page.getByRole("img", { name: "Photo from Alex" });
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const src = await photo.getAttribute("src");
  const visitor = await browser.newContext();
  expect((await visitor.request.get(new URL(src ?? "", alex.url()).toString())).status()).toBe(404);
  await visitor.close();

  // A GIF found by its tag.
  await alex.getByRole("button", { name: "Send a GIF", exact: true }).click();
  const gifDialog = alex.getByRole("dialog", { name: "Send a GIF" });
  await gifDialog.getByLabel("Search GIFs").fill("coffee");
  const coffee = gifDialog.getByRole("button", { name: /coffee/i }).first();
  await expect(coffee).toBeVisible();
  await coffee.click();
  await expect(gifDialog).toBeHidden();
  await expect(bo.page.locator(".chat-gif-image")).toBeVisible();

  // Bo answers; Alex sees it live.
  const field = bo.page.getByRole("textbox", { name: "Message to Alex" });
  await field.fill("Thank you, Alex!");
  await field.press("Enter");
  await expect(alex.locator(".chat-bubble", { hasText: "Thank you, Alex!" })).toBeVisible();
  await expectAccessible(bo.page);
  await bo.page.screenshot({ path: path.join(shots, "chat-media.png") });

  // Each send was paid once: the gift 30, the photo 20, the GIF 10, out of Alex's 500; Bo's reply 10 of 20.
  const conversation = Number(new URL(bo.page.url()).pathname.split("/").pop());
  const alexView = await (await alex.request.get(`/api/chat.php?id=${conversation}`)).json();
  expect(alexView.messages.map((m: { kind: string }) => m.kind)).toEqual(["gift", "photo", "gif", "text"]);
  expect(alexView.credits).toBe(500 - 30 - 20 - 10);
  expect((await (await bo.page.request.get(`/api/chat.php?id=${conversation}`)).json()).credits).toBe(10);
  expect(alexProblems).toEqual([]);
  expect(boProblems).toEqual([]);
  await alex.context().close();
  await bo.page.context().close();
});
