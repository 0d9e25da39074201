import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bodiesOf, renderAsMember, stubApi } from "../../test-utils";
import { setDeviceState } from "./push";
import { PushSetting } from "./push-setting";
import { fakeBrowserPush, testSubscriptionJson } from "./test-push";
import { testUser } from "./test-users";

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
  setDeviceState(null);
});

const route = { "POST /api/user.php?push=1": { user: testUser() } };

describe("push on this device in the notification settings", () => {
  it("switches push on (subscribe and store) and off (unsubscribe and forget this endpoint)", async () => {
    const fake = fakeBrowserPush({ answer: "granted" });
    const fetch = stubApi(route);
    renderAsMember(<PushSetting publicKey="BKey" />, { user: testUser() });
    const toggle = await screen.findByRole("checkbox", { name: "New messages, likes and matches" });
    expect(toggle).not.toBeChecked();
    await act(async () => fireEvent.click(toggle));
    await vi.waitFor(() => expect(toggle).toBeChecked());
    await act(async () => fireEvent.click(toggle));
    await vi.waitFor(() => expect(toggle).not.toBeChecked());
    expect(fake.state.unsubscribed).toBe(1);
    expect(bodiesOf(fetch, "POST", "/api/user.php")).toEqual([
      { subscription: testSubscriptionJson },
      { subscription: false, endpoint: testSubscriptionJson.endpoint },
    ]);
  });

  it("says that a refused permission is changed in the browser", async () => {
    fakeBrowserPush({ permission: "denied" });
    renderAsMember(<PushSetting publicKey="BKey" />, { user: testUser() });
    expect(await screen.findByRole("checkbox", { name: "New messages, likes and matches" })).toBeDisabled();
    expect(screen.getByText(/Notifications are blocked for this site in your browser/)).toBeVisible();
  });

  it("shows nothing without the site's push key or in a browser that cannot push", async () => {
    const view = renderAsMember(<PushSetting publicKey="BKey" />, { user: testUser() });
    await act(async () => {});
    expect(screen.queryByRole("checkbox")).toBeNull();
    view.unmount();
    fakeBrowserPush();
    renderAsMember(<PushSetting publicKey={null} />, { user: testUser() });
    await act(async () => {});
    expect(screen.queryByRole("checkbox")).toBeNull();
  });
});
