import type { User } from "@app/contract";
import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SMARTPHONE_QUERY } from "../../lib/media";
import { renderAsMember } from "../../test-utils";
import {
  ACTIVATION_REMINDER_KEY,
  AccountAlerts,
  DISABLED_NOTIFICATIONS_KEY,
  showActivationReminder,
  showDisabledNotificationsAlert,
} from "./account-alerts";
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

function renderAlerts(user: User | null, path = "/members") {
  return renderAsMember(<AccountAlerts />, { user, path });
}

describe("account alerts", () => {
  afterEach(() => window.localStorage.clear());

  it("renders the activation reminder with a resend button, and remembers its dismissal with a timestamp", async () => {
    const view = renderAlerts(unconfirmedUser());
    expect(await screen.findByText("Confirm your e-mail address")).toBeVisible();
    expect(screen.getByRole("button", { name: "Send the e-mail again" })).toBeEnabled();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Close" })));
    expect(screen.queryByText("Confirm your e-mail address")).toBeNull();
    const stored = window.localStorage.getItem(ACTIVATION_REMINDER_KEY);
    expect(stored && !Number.isNaN(Date.parse(stored))).toBe(true);
    view.unmount();
    renderAlerts(unconfirmedUser());
    await act(async () => {});
    expect(screen.queryByText("Confirm your e-mail address")).toBeNull();
  });

  it("renders the disabled-notifications alert with a link to the notification settings", async () => {
    renderAlerts(testUser({ notifications_disabled: [{ category: "news", reason: "fbl" }] }));
    const link = await screen.findByRole("link", { name: "Check your e-mail notifications" });
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
