/** The push module's public face: its service (send a push, a member's push state) and the VAPID keys. */
export { MAX_DEVICES, PUSH_TTL_SECONDS, type PushResult, PushRetryError, PushService, type SendOptions } from "./service.ts";
export { loadVapidKeys, type VapidKeys } from "./vapid.ts";
