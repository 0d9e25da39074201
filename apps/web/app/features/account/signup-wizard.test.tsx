import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bodiesOf, renderAsMember, stubApi } from "../../test-utils";
import { setDeviceState } from "./push";
import { SignupWizard } from "./signup-wizard";
import { fakeBrowserPush, testSubscriptionJson } from "./test-push";
import { unconfirmedUser } from "./test-users";

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
  setDeviceState(null);
});

function renderWizard(onLockChange: (locked: boolean) => void, onFinish = vi.fn(), pushPublicKey: string | null = null) {
  renderAsMember(
    <SignupWizard
      startAt="profile"
      pushPublicKey={pushPublicKey}
      onLockChange={onLockChange}
      onFinish={onFinish}
      profileSteps={[
        {
          id: "photo",
          titleId: "signup.step_photo",
          render: (done) => (
            <button type="button" onClick={done}>
              skip photo
            </button>
          ),
        },
      ]}
    />,
    { user: unconfirmedUser() },
  );
  return onFinish;
}

describe("signup steps", () => {
  it("shows the progress, moves focus to each new step's heading and ends with the e-mail confirmation", async () => {
    const onFinish = renderWizard(() => {});
    expect(screen.getByText("Step 1 of 2")).toBeVisible();
    expect(screen.getByRole("heading", { name: "Add a photo" })).toBeVisible();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "skip photo" })));
    const heading = screen.getByRole("heading", { name: "Confirm your e-mail address" });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText("Step 2 of 2")).toBeVisible();
    expect(screen.getByText("sam@example.com")).toBeVisible();
    fireEvent.click(screen.getByRole("button", { name: "Go to the members" }));
    expect(onFinish).toHaveBeenCalledTimes(1);
  });

  it("resends the activation e-mail", async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => Response.json({ ok: true }));
    vi.stubGlobal("fetch", fetch);
    renderWizard(() => {});
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "skip photo" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send the e-mail again" })));
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/activation.php");
    expect(screen.getByText("We sent the e-mail again.")).toBeVisible();
  });

  it("with a push key and a capable browser, the push step subscribes this device and goes on (spec §4)", async () => {
    const fake = fakeBrowserPush({ answer: "granted" });
    const fetch = stubApi({ "POST /api/user.php?push=1": { user: unconfirmedUser() } });
    renderWizard(() => {}, vi.fn(), "BPushKey");
    expect(screen.getByText("Step 1 of 3")).toBeVisible();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "skip photo" })));
    expect(screen.getByRole("heading", { name: "Stay informed" })).toBeVisible();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Turn on notifications" })));
    expect(fake.Notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(bodiesOf(fetch, "POST", "/api/user.php")).toEqual([{ subscription: testSubscriptionJson }]);
    expect(screen.getByRole("heading", { name: "Confirm your e-mail address" })).toBeVisible();
  });

  it("a refused permission stores 'denied' and the wizard goes on (spec §8)", async () => {
    fakeBrowserPush({ answer: "denied" });
    const fetch = stubApi({ "POST /api/user.php?push=1": { user: unconfirmedUser() } });
    renderWizard(() => {}, vi.fn(), "BPushKey");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "skip photo" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Turn on notifications" })));
    expect(bodiesOf(fetch, "POST", "/api/user.php")).toEqual([{ subscription: "denied" }]);
    expect(screen.getByRole("heading", { name: "Confirm your e-mail address" })).toBeVisible();
  });

  it("has no push step without a push key or in a browser that cannot push", async () => {
    renderWizard(() => {}, vi.fn(), "BPushKey");
    expect(screen.getByText("Step 1 of 2")).toBeVisible();
  });
});
