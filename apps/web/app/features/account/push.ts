import { APP, type PushSubscriptionJson, type PushSubscriptionRequest } from "@app/contract";
import { useSyncExternalStore } from "react";
import { SERVICE_WORKER_OPTIONS } from "../../lib/service-worker";

/**
 * Web push on this device (spec §4, issue #28): whether the browser can, this device's subscription,
 * subscribing and unsubscribing, and telling the account (POST /api/user.php?push=1). The account
 * API loads with the first call (decision 025): the member provider reads the state on every page.
 */

/** Spec §4: push capable when the browser has service workers, the Push API and notifications. */
export function pushCapable(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/**
 * Spec §4: this device's subscription: the serialised subscription, false (none), 'denied' (the
 * member refused the permission), or null (unknown: not read yet, or the browser cannot push).
 */
export type DevicePushState = PushSubscriptionJson | false | "denied" | null;

let current: DevicePushState = null;
const listeners = new Set<() => void>();

/** Sets what is known of this device (exported for tests). */
export function setDeviceState(next: DevicePushState): DevicePushState {
  current = next;
  for (const listener of [...listeners]) listener();
  return next;
}

export function devicePushState(): DevicePushState {
  return current;
}

function subscribeState(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** This device's push state for a component (null on the server and until it is read). */
export function useDevicePushState(): DevicePushState {
  return useSyncExternalStore(subscribeState, devicePushState, () => null);
}

/** Whether the state is a subscription (this device receives pushes). */
export function isSubscribed(state: DevicePushState): state is PushSubscriptionJson {
  return typeof state === "object" && state !== null;
}

function toJson(subscription: PushSubscription): PushSubscriptionJson {
  return subscription.toJSON() as PushSubscriptionJson;
}

/** Reads this device's state from the browser: the permission, then the worker's subscription. */
export async function readDevicePushState(): Promise<DevicePushState> {
  if (!pushCapable()) return setDeviceState(null);
  if (Notification.permission === "denied") return setDeviceState("denied");
  try {
    const registration = await navigator.serviceWorker.getRegistration("/");
    const subscription = await registration?.pushManager.getSubscription();
    return setDeviceState(subscription ? toJson(subscription) : false);
  } catch {
    return setDeviceState(false);
  }
}

/** How long subscribing waits for the service worker to be active (it installs on the first visit). */
const WORKER_READY_MS = 15_000;

/** The site's worker registration, registered here when the page has none yet (e.g. in development). */
async function workerRegistration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration("/");
  if (!existing) await navigator.serviceWorker.register(APP.serviceWorkerPath, SERVICE_WORKER_OPTIONS);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the service worker did not start")), WORKER_READY_MS);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The VAPID public key (base64url, settings.push_public_key) as the bytes the Push API takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function tellAccount(request: PushSubscriptionRequest): Promise<void> {
  await (await import("./api")).savePushSubscription(request);
}

/**
 * Turns push on for this device: asks for the permission; granted → subscribes with the site's key and
 * stores the subscription on the account; denied → stores 'denied' (spec §8). A dismissed prompt
 * changes nothing (false). Resolves with the new state; a failed subscription or call rejects.
 */
export async function subscribePush(publicKey: string): Promise<DevicePushState> {
  const permission = await Notification.requestPermission();
  if (permission === "denied") {
    setDeviceState("denied");
    await tellAccount({ subscription: "denied" });
    return "denied";
  }
  if (permission !== "granted") return setDeviceState(false);
  const registration = await workerRegistration();
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: applicationServerKey(publicKey),
  });
  const json = toJson(subscription);
  await tellAccount({ subscription: json });
  return setDeviceState(json);
}

/** Turns push off for this device: the browser's subscription ends and the account forgets it. */
export async function unsubscribePush(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = await registration?.pushManager.getSubscription();
  setDeviceState(false);
  if (!subscription) return;
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe();
  await tellAccount({ subscription: false, endpoint });
}

/** Per browser session and member: the endpoint this device last posted to the account. */
const POSTED_KEY = "push-posted";

function rememberPosted(userId: number, endpoint: string): void {
  try {
    window.sessionStorage.setItem(`${POSTED_KEY}:${userId}`, endpoint);
  } catch {
    // No storage: posted again on the next page load, which is harmless.
  }
}

function postedBefore(userId: number, endpoint: string): boolean {
  try {
    return window.sessionStorage.getItem(`${POSTED_KEY}:${userId}`) === endpoint;
  } catch {
    return false;
  }
}

/**
 * Spec §4: "A subscription is posted to the account when logged in." Reads this device's state and,
 * when it has a subscription, stores it on the account of `userId` (once per browser session and
 * member). Failures are ignored: the next page load tries again.
 */
export async function syncDevicePush(userId: number): Promise<DevicePushState> {
  const state = await readDevicePushState();
  if (isSubscribed(state) && !postedBefore(userId, state.endpoint)) {
    try {
      await tellAccount({ subscription: state });
      rememberPosted(userId, state.endpoint);
    } catch {
      // Offline or the server restarting: the next page load posts it.
    }
  }
  return state;
}
