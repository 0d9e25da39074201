import type { User } from "@app/contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SMARTPHONE_QUERY } from "../../lib/media";
import { bodiesOf, renderAsMember, stubApi } from "../../test-utils";
import {
  ACTIVATION_REMINDER_KEY,
  AccountAlerts,
  DISABLED_NOTIFICATIONS_KEY,
  PUSH_ALERT_KEY,
  showActivationReminder,
  showDisabledNotificationsAlert,
  showPushAlert,
} from "./account-alerts";
import { setDeviceState } from "./push";
import { fakeBrowserPush, testSubscriptionJson } from "./test-push";
import { testUser, unconfirmedUser } from "./test-users";

describe("account-activation reminder rule (spec §2)", () => {
  it("shows for not_confirmed with a disabled profile and no disabled notifications", () => {
    expect(showActivationReminder(unconfirmedUser(), "/members")).toBe(true);
  });

  it("needs all three conditions", () => {
    expect(showActivationReminder(unconfirmedUser({ status: "active" }), "/members")).toBe(false);
    const enabledProfile = unconfirmedUser();
    enabledProfile.profile = { ...enabledProfile.profile, status: "active" };
    expect(showActivationReminder(enabledProfile, "/members")).toBe(false);
    expect(
      showActivationReminder(unconfirmedUser({ notifications_disabled: [{ category: "news", reason: "user" }] }), "/members"),
    ).toBe(false);
    expect(showActivationReminder(null, "/members")).toBe(false);
  });

  it("is not shown on signup, settings or notifications", () => {
    for (const path of ["/signup", "/settings", "/notifications", "/settings/"]) {
      expect(showActivationReminder(unconfirmedUser(), path)).toBe(false);
    }
    expect(showActivationReminder(unconfirmedUser(), "/")).toBe(true);
  });
});

describe("disabled e-mail notifications alert rule (spec §2)", () => {
  it("shows when a category is off because of a spam report, a bounce or a list unsubscribe", () => {
    for (const reason of ["fbl", "bounce", "listunsubscribe"] as const) {
      expect(
        showDisabledNotificationsAlert(testUser({ notifications_disabled: [{ category: "like", reason }] }), "/members"),
      ).toBe(true);
    }
  });

  it("does not show for the member's own choice, nor on settings or notifications", () => {
    expect(
      showDisabledNotificationsAlert(testUser({ notifications_disabled: [{ category: "like", reason: "user" }] }), "/members"),
    ).toBe(false);
    const bounced = testUser({ notifications_disabled: [{ category: "like", reason: "bounce" }] });
    expect(showDisabledNotificationsAlert(bounced, "/settings")).toBe(false);
    expect(showDisabledNotificationsAlert(bounced, "/notifications")).toBe(false);
    expect(showDisabledNotificationsAlert(testUser(), "/members")).toBe(false);
  });
});

describe("push-notification enable alert rule (spec §2)", () => {
  const shown = {
    user: testUser(),
    pathname: "/members",
    publicKey: "BPublicKey",
    capable: true,
    device: false,
  } as const;

  it("shows for a logged-in, push-capable, unsubscribed member when a push public key is set", () => {
    expect(showPushAlert(shown)).toBe(true);
  });

  it("is not shown on signup, notifications, activate-done, directdebit or premium", () => {
    for (const pathname of ["/signup", "/complete-signup", "/notifications", "/activate/done", "/directdebit", "/premium"]) {
      expect(showPushAlert({ ...shown, pathname }), pathname).toBe(false);
    }
    expect(showPushAlert({ ...shown, pathname: "/premium/" })).toBe(false);
  });

  it("needs a member, a key and a capable browser", () => {
    expect(showPushAlert({ ...shown, user: null })).toBe(false);
    expect(showPushAlert({ ...shown, publicKey: null })).toBe(false);
    expect(showPushAlert({ ...shown, capable: false })).toBe(false);
  });

  it("is not shown once subscribed or denied, nor while this device's state is unknown", () => {
    expect(showPushAlert({ ...shown, device: testSubscriptionJson })).toBe(false);
    expect(showPushAlert({ ...shown, device: "denied" })).toBe(false);
    expect(showPushAlert({ ...shown, device: null })).toBe(false);
    expect(showPushAlert({ ...shown, user: testUser({ push_subscription: "denied" }) })).toBe(false);
    // Another device of the member is subscribed: this one is still offered.
    expect(showPushAlert({ ...shown, user: testUser({ push_subscription: true }) })).toBe(true);
  });
});

function renderAlerts(user: User | null, path = "/members", pushPublicKey: string | null = null) {
  return renderAsMember(<AccountAlerts pushPublicKey={pushPublicKey} />, { user, path });
}

describe("account alerts", () => {
  afterEach(() => {
    window.localStorage.clear();
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, "serviceWorker");
    setDeviceState(null);
  });

  it("offers push with a button that subscribes this device, then hides; dismissable and remembered", async () => {
    const fake = fakeBrowserPush({ answer: "granted" });
    const fetch = stubApi({ "POST /api/user.php?push=1": { user: testUser() } });
    setDeviceState(false);
    const key = Buffer.from(Uint8Array.from({ length: 65 }, (_, i) => i)).toString("base64url");
    const view = renderAlerts(testUser(), "/members", key);
    const button = await screen.findByRole("button", { name: "Turn on notifications" });
    await act(async () => fireEvent.click(button));
    expect(fake.Notification.requestPermission).toHaveBeenCalledTimes(1);
    // The account API loads with the call (not with the alerts, issue #29): the POST follows.
    await waitFor(() => expect(bodiesOf(fetch, "POST", "/api/user.php")).toEqual([{ subscription: testSubscriptionJson }]));
    expect(screen.queryByRole("button", { name: "Turn on notifications" })).toBeNull();
    view.unmount();

    // Not shown without a key, nor on an excluded page.
    act(() => void setDeviceState(false));
    for (const [path, publicKey] of [
      ["/members", null],
      ["/premium", key],
    ] as const) {
      const other = renderAlerts(testUser(), path, publicKey);
      await act(async () => {});
      expect(screen.queryByRole("button", { name: "Turn on notifications" }), path).toBeNull();
      other.unmount();
    }

    renderAlerts(testUser(), "/members", key);
    await screen.findByRole("button", { name: "Turn on notifications" });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Close" })));
    expect(screen.queryByRole("button", { name: "Turn on notifications" })).toBeNull();
    expect(window.localStorage.getItem(PUSH_ALERT_KEY)).toBeTruthy();
  });

  it("hides the push alert once the permission is refused, which the account stores as 'denied'", async () => {
    fakeBrowserPush({ answer: "denied" });
    const fetch = stubApi({ "POST /api/user.php?push=1": { user: testUser() } });
    setDeviceState(false);
    renderAlerts(testUser(), "/members", "BKey");
    await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Turn on notifications" })));
    await waitFor(() => expect(bodiesOf(fetch, "POST", "/api/user.php")).toEqual([{ subscription: "denied" }]));
    expect(screen.queryByRole("button", { name: "Turn on notifications" })).toBeNull();
  });

  it("renders the activation reminder with a resend button, and remembers its dismissal with a timestamp", async () => {
    const view = renderAlerts(unconfirmedUser());
    expect(await screen.findByText("Confirm your e-mail address")).toBeVisible();
    // The resend button loads with the alert (issue #29).
    expect(await screen.findByRole("button", { name: "Send the e-mail again" })).toBeEnabled();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Close" })));
    expect(screen.queryByText("Confirm your e-mail address")).toBeNull();
    const stored = window.localStorage.getItem(ACTIVATION_REMINDER_KEY);
    expect(stored && !Number.isNaN(Date.parse(stored))).toBe(true);
    view.unmount();
    renderAlerts(unconfirmedUser());
    await act(async () => {});
    expect(screen.queryByText("Confirm your e-mail address")).toBeNull();
  });

  it("renders the disabled-notifications alert with its reasons and a link to the notification settings", async () => {
    renderAlerts(
      testUser({
        notifications_disabled: [
          { category: "news", reason: "fbl" },
          { category: "like", reason: "bounce" },
          { category: "promotions", reason: "user" },
        ],
      }),
    );
    const link = await screen.findByRole("link", { name: "Check your e-mail notifications" });
    expect(screen.getByText(/You marked one of our e-mails as spam/)).toBeVisible();
    expect(screen.getByText(/E-mails to sam@example.com could not be delivered/)).toBeVisible();
    expect(screen.queryByText(/You unsubscribed with the link/)).toBeNull();
    expect(link.getAttribute("href")).toBe("/notifications");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Close" })));
    expect(window.localStorage.getItem(DISABLED_NOTIFICATIONS_KEY)).toBeTruthy();
  });

  it("shows nothing to a visitor or on the screens that are excluded", async () => {
    renderAlerts(null);
    await act(async () => {});
    expect(screen.queryByRole("alert")).toBeNull();
    renderAlerts(unconfirmedUser(), "/settings");
    await act(async () => {});
    expect(screen.queryByText("Confirm your e-mail address")).toBeNull();
  });

  it("shows the activation reminder as a modal on a smartphone after signup (api_signup_complete)", async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      matches: query === SMARTPHONE_QUERY,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as unknown as typeof window.matchMedia;
    try {
      renderAlerts(unconfirmedUser(), "/members?api_signup_complete=1");
      const dialog = await screen.findByRole("dialog", { name: "Confirm your e-mail address" });
      expect(within(dialog).getByRole("button", { name: "Send the e-mail again" })).toBeEnabled();
    } finally {
      window.matchMedia = matchMedia;
    }
  });
});
