import { afterEach, describe, expect, it, vi } from "vitest";
import { bodiesOf, stubApi } from "../../test-utils";
import {
  applicationServerKey,
  devicePushState,
  pushCapable,
  readDevicePushState,
  setDeviceState,
  subscribePush,
  syncDevicePush,
  unsubscribePush,
} from "./push";
import { fakeBrowserPush, testSubscriptionJson } from "./test-push";
import { testUser } from "./test-users";

let restore = () => {};
afterEach(() => {
  vi.unstubAllGlobals();
  restore();
  setDeviceState(null);
  window.sessionStorage.clear();
});

/** A P-256 public key's 65 bytes (0x04, then x and y), base64url as settings.push_public_key carries it. */
const KEY_BYTES = Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : (i * 37) % 256));
const PUBLIC_KEY = Buffer.from(KEY_BYTES).toString("base64url");
const pushRoute = { "POST /api/user.php?push=1": { user: testUser() } };

describe("push on this device (spec §4)", () => {
  it("is capable only with service workers, the Push API and notifications", () => {
    expect(pushCapable()).toBe(false);
    restore = fakeBrowserPush().restore;
    expect(pushCapable()).toBe(true);
  });

  it("turns the base64url VAPID key into its bytes", () => {
    expect(Array.from(applicationServerKey(PUBLIC_KEY))).toEqual(Array.from(KEY_BYTES));
  });

  it("reads the state: unknown when not capable, 'denied', the subscription, or false", async () => {
    expect(await readDevicePushState()).toBeNull();
    let fake = fakeBrowserPush({ permission: "denied" });
    restore = fake.restore;
    expect(await readDevicePushState()).toBe("denied");
    fake = fakeBrowserPush({ permission: "granted", subscribed: true });
    expect(await readDevicePushState()).toEqual(testSubscriptionJson);
    fake = fakeBrowserPush({ permission: "granted" });
    expect(await readDevicePushState()).toBe(false);
  });

  it("subscribes with the site's key once granted and posts the subscription to POST /api/user.php?push=1", async () => {
    const fake = fakeBrowserPush({ answer: "granted" });
    restore = fake.restore;
    const fetch = stubApi(pushRoute);
    expect(await subscribePush(PUBLIC_KEY)).toEqual(testSubscriptionJson);
    expect(fake.state.subscribeOptions).toHaveLength(1);
    expect(fake.state.subscribeOptions[0]?.userVisibleOnly).toBe(true);
    expect(Array.from(fake.state.subscribeOptions[0]?.applicationServerKey as Uint8Array)).toEqual(Array.from(KEY_BYTES));
    expect(bodiesOf(fetch, "POST", "/api/user.php")).toEqual([{ subscription: testSubscriptionJson }]);
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/user.php?push=1");
    expect(devicePushState()).toEqual(testSubscriptionJson);
  });

  it("stores 'denied' when the permission is refused (spec §8), and nothing when the prompt is dismissed", async () => {
    restore = fakeBrowserPush({ answer: "denied" }).restore;
    const fetch = stubApi(pushRoute);
    expect(await subscribePush(PUBLIC_KEY)).toBe("denied");
    expect(bodiesOf(fetch, "POST", "/api/user.php")).toEqual([{ subscription: "denied" }]);
    expect(devicePushState()).toBe("denied");

    fakeBrowserPush({ answer: "default" });
    fetch.mockClear();
    expect(await subscribePush(PUBLIC_KEY)).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("unsubscribes: the browser's subscription ends and the account forgets this endpoint", async () => {
    const fake = fakeBrowserPush({ permission: "granted", subscribed: true });
    restore = fake.restore;
    const fetch = stubApi(pushRoute);
    await unsubscribePush();
    expect(fake.state.unsubscribed).toBe(1);
    expect(bodiesOf(fetch, "POST", "/api/user.php")).toEqual([{ subscription: false, endpoint: testSubscriptionJson.endpoint }]);
    expect(devicePushState()).toBe(false);
  });

  it("posts an existing subscription to the account when logged in, once per browser session and member", async () => {
    restore = fakeBrowserPush({ permission: "granted", subscribed: true }).restore;
    const fetch = stubApi(pushRoute);
    expect(await syncDevicePush(7)).toEqual(testSubscriptionJson);
    await syncDevicePush(7);
    expect(bodiesOf(fetch, "POST", "/api/user.php")).toEqual([{ subscription: testSubscriptionJson }]);
    await syncDevicePush(8);
    expect(bodiesOf(fetch, "POST", "/api/user.php")).toHaveLength(2);
  });

  it("posts nothing for a device without a subscription", async () => {
    restore = fakeBrowserPush({ permission: "default" }).restore;
    const fetch = stubApi(pushRoute);
    expect(await syncDevicePush(7)).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });
});
