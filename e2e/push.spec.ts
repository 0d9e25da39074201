import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, newMember, open, setAlertState, test } from "./fixtures";

/**
 * Web push end to end (issue #28): a member turns notifications on from the alert, leaves the tab, and
 * a message from another member reaches them as a push: the site encrypts and signs it, the push
 * service (e2e/push-service.ts) takes it, the browser's service worker shows it in the member's
 * language, and the click opens the conversation and is counted.
 *
 * The one hop this machine cannot make is Google's push service, through which Chromium subscribes and
 * receives: the page's PushManager answers with the stand-in's subscription (keys the stand-in holds,
 * as the browser would), and the stand-in's decrypted push is handed to the worker through the
 * DevTools protocol, as the browser does with a push it received.
 */
const pushService = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3199) - 3}`;

interface Device {
  id: string;
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

/** The page's PushManager subscribes with `device` (kept in localStorage, as the browser keeps it). */
async function useDevice(context: BrowserContext, device: Device): Promise<void> {
  await context.addInitScript((subscription) => {
    const KEY = "e2e-push-subscription";
    const make = () => ({
      endpoint: subscription.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true },
      toJSON: () => subscription,
      getKey: () => null,
      unsubscribe: async () => {
        localStorage.removeItem(KEY);
        return true;
      },
    });
    PushManager.prototype.subscribe = async () => {
      localStorage.setItem(KEY, "1");
      return make() as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async () =>
      (localStorage.getItem(KEY) ? make() : null) as unknown as PushSubscription | null;
  }, device.subscription);
}

/** The page as the browser leaves it when the member switches away: hidden, telling the site. */
async function hide(page: Page): Promise<void> {
  const beacon = page.waitForRequest((request) => request.url().endsWith("/api/page-hidden.php"));
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await beacon;
}

test.describe("web push", () => {
  test.use({ serviceWorkers: "allow" });

  test("a member turns notifications on from the alert, gets a push for a message while away, and its click opens the conversation", async ({
    browser,
    baseURL,
  }) => {
    test.slow(); // Two members, a service worker, the notifications' drain (every 5 s) on a busy box.
    const origin = new URL(String(baseURL)).origin;
    const device = (await (await fetch(`${pushService}/devices`, { method: "POST" })).json()) as Device;
    const bo = await newMember(browser, "Bo", {
      autoLike: false,
      context: { serviceWorkers: "allow", permissions: ["notifications"] },
    });
    const ada = await newMember(browser, "Ada", { autoLike: false });
    const context = bo.page.context();
    await useDevice(context, device);
    // The alerts come one at a time (issue #29): the add-photos alert, before push, is dismissed already.
    await setAlertState(bo.page, { dismissed: ["add-photos"] });

    // The site's worker installs on the first pages (what its install fetched is kept for the message).
    const workerFetches: string[] = [];
    context.on("response", (response) => {
      const path = new URL(response.url()).pathname;
      if (path === "/sw.js" || path === "/offline") workerFetches.push(`${path} ${response.status()}`);
    });
    await open(bo.page, "/members");
    let checks = 0;
    const workerActive = expect
      .poll(
        async () => {
          const active = await bo.page.evaluate(async () =>
            Boolean((await navigator.serviceWorker.getRegistration("/"))?.active),
          );
          // A worker whose install failed (its offline page not fetched on a busy box) is registered
          // again by the next page, as it would be for a member going on.
          if (!active && ++checks % 15 === 0) await open(bo.page, "/members");
          return active;
        },
        { timeout: 90_000 },
      )
      .toBe(true);
    await workerActive.catch((error: Error) => {
      throw new Error(`the service worker did not become active (its fetches: ${workerFetches.join(", ")})`, { cause: error });
    });

    // The alert offers notifications; turning them on subscribes this device to the account.
    const alert = bo.page.getByRole("alert").filter({ hasText: "Get a notification on this device" });
    const saved = bo.page.waitForResponse((r) => r.url().endsWith("/api/user.php?push=1") && r.request().method() === "POST");
    await alert.getByRole("button", { name: "Turn on notifications" }).click();
    expect((await saved).status()).toBe(200);
    await expect(alert).toHaveCount(0);
    expect((await (await bo.page.request.get("/api/user.php")).json()).user.push_subscription).toBe(true);

    // Bo switches to another tab; Ada writes.
    await hide(bo.page);
    const sent = await ada.page.request.post("/api/message.php", {
      data: { profile_id: bo.id, client_id: randomUUID(), text: "Hi Bo, are you around?" },
    });
    expect(sent.status()).toBe(200);

    // The site pushes it: encrypted for this device, signed with the site's key, within the drain's period.
    const received = async () =>
      (await (await fetch(`${pushService}/received?device=${device.id}`)).json()) as {
        payload: { kind: string; title: string; body: string; url: string; notification_id?: number };
        headers: { authorization?: string; ttl?: string };
      }[];
    await expect.poll(async () => (await received()).length, { timeout: 60_000 }).toBe(1);
    const [push] = await received();
    const { settings } = await (await bo.page.request.get("/api/settings.php")).json();
    expect(push?.headers.authorization).toContain(`k=${settings.push_public_key}`);
    expect(push?.payload).toMatchObject({ kind: "message", url: `/members/${ada.id}/chat` });
    expect(push?.payload.title).toContain("Ada");
    expect(push?.payload.notification_id).toEqual(expect.any(Number));

    // The browser hands it to the worker, which shows it and tells the open page.
    const cdp = await context.newCDPSession(bo.page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    const id = await registrationId;
    const told = bo.page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          navigator.serviceWorker.addEventListener("message", (event) => resolve(String(event.data?.type)), { once: true }),
        ),
    );
    const deliver = () =>
      cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId: id, data: JSON.stringify(push?.payload) });
    const shown = () =>
      bo.page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body })),
      );
    await deliver();
    let polls = 0;
    await expect
      .poll(
        async () => {
          const notifications = await shown();
          // DevTools drops a push the browser was too slow to dispatch to a starting worker: again.
          if (notifications.length === 0 && ++polls % 8 === 0) await deliver();
          return notifications[0]?.title ?? null;
        },
        { timeout: 30_000 },
      )
      .toBe(push?.payload.title);
    expect(await told).toBe("NEW_PUSH_MESSAGE");

    // The member clicks it: the worker counts the click and the page opens the conversation.
    // The worker's own request: the context sees it (the page does not).
    const clicked = context.waitForEvent("response", {
      predicate: (r) => r.url().endsWith("/api/push-click.php"),
      timeout: 30_000,
    });
    const worker = context.serviceWorkers().find((w) => w.url().startsWith(origin));
    expect(worker, "the site's service worker").toBeTruthy();
    await worker?.evaluate(async () => {
      // The worker's own global scope (this code runs inside the service worker).
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(event: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [notification] = await scope.registration.getNotifications();
      if (!notification) throw new Error("no notification");
      scope.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification }));
    });
    expect((await clicked).status()).toBe(200);
    await expect(bo.page).toHaveURL(new RegExp(`/members/${ada.id}/chat$`));
    await expect(bo.page.getByRole("log").getByText("Hi Bo, are you around?")).toBeVisible();

    await ada.page.context().close();
    await context.close();
  });
});
