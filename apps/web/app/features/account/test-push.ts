import { vi } from "vitest";

/** A push subscription as a browser's PushSubscription.toJSON() gives it. */
export const testSubscriptionJson = {
  endpoint: "https://push.example/send/device-1",
  expirationTime: null,
  keys: { p256dh: `B${"A".repeat(86)}`, auth: "AAAAAAAAAAAAAAAAAAAAAA" },
};

/**
 * Stand-ins for the browser's push: Notification (its permission and the prompt's answer),
 * PushManager, and a service worker registration whose pushManager subscribes. For tests; undo with
 * vi.unstubAllGlobals() and `restore()`.
 */
export function fakeBrowserPush({
  permission = "default",
  answer = "granted",
  subscribed = false,
}: {
  permission?: NotificationPermission;
  answer?: NotificationPermission;
  subscribed?: boolean;
} = {}) {
  const state = {
    permission,
    subscription: null as null | { endpoint: string; toJSON(): unknown; unsubscribe(): Promise<boolean> },
    subscribeOptions: [] as PushSubscriptionOptionsInit[],
    unsubscribed: 0,
  };
  const makeSubscription = () => ({
    endpoint: testSubscriptionJson.endpoint,
    toJSON: () => testSubscriptionJson,
    unsubscribe: async () => {
      state.unsubscribed++;
      state.subscription = null;
      return true;
    },
  });
  if (subscribed) state.subscription = makeSubscription();
  const registration = {
    pushManager: {
      getSubscription: async () => state.subscription,
      subscribe: async (options: PushSubscriptionOptionsInit) => {
        state.subscribeOptions.push(options);
        state.subscription = makeSubscription();
        return state.subscription;
      },
    },
  };
  const Notification = {
    get permission() {
      return state.permission;
    },
    requestPermission: vi.fn(async () => {
      state.permission = answer;
      return answer;
    }),
  };
  vi.stubGlobal("Notification", Notification);
  vi.stubGlobal("PushManager", class {});
  const serviceWorker = {
    getRegistration: async () => registration,
    register: async () => registration,
    ready: Promise.resolve(registration),
    addEventListener: () => {},
    removeEventListener: () => {},
  };
  Object.defineProperty(navigator, "serviceWorker", { value: serviceWorker, configurable: true });
  return {
    state,
    Notification,
    restore: () => {
      Reflect.deleteProperty(navigator, "serviceWorker");
    },
  };
}
