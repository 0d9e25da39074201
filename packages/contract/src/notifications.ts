import { z } from "zod";
import { notificationCategorySchema } from "./accounts.ts";

/**
 * Notifications (issue #28): web push, the client's polling loop, presence, and the e-mail side's
 * webhooks. One definition for the server, the web app, the service worker's messages and the tests.
 */

// The numbers apart from the schemas: the page's polling loop imports them on every page without zod (decision 025).
export * from "./notifications-constants.ts";

/** A browser's push subscription as `PushSubscription.toJSON()` gives it (RFC 8030 endpoint, RFC 8291 keys). */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2_000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The subscription's P-256 public key, base64url (65 bytes uncompressed: 87 characters). */
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}=*$/),
    /** The 16-byte authentication secret, base64url. */
    auth: z.string().regex(/^[A-Za-z0-9_-]{16,30}=*$/),
  }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

/**
 * Spec §3: a push subscription is a serialised subscription, false, or 'denied'. POST
 * /api/user.php?push=1 stores this device's: a subscription adds (or refreshes) it, false removes the one
 * at `endpoint` (this device unsubscribed), 'denied' records that the member refused the permission.
 */
export const pushSubscriptionRequestSchema = z.object({
  subscription: z.union([pushSubscriptionSchema, z.literal(false), z.literal("denied")]),
  /** With `subscription: false`: the endpoint of the subscription this device gave up. */
  endpoint: z.string().max(2_000).optional(),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequestSchema>;

/** What a push carries to the service worker: shown as is (already in the member's language). */
export const pushPayloadSchema = z.object({
  kind: z.enum(["message", "like", "match"]),
  title: z.string().max(200),
  body: z.string().max(500),
  /** The page a click opens (same origin path), e.g. /members/12/chat, /likes, /matches. */
  url: z.string().startsWith("/").max(500),
  /** Notifications with one tag replace each other (one per conversation, one for likes). */
  tag: z.string().max(100),
  icon: z.string().max(500).optional(),
  conversation_id: z.number().int().optional(),
  /** The notification's record, so that a click is counted (the e-mail fallback is then not sent). */
  notification_id: z.number().int().optional(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/** Spec §7: what the service worker posts to the open pages. */
export const workerMessageSchema = z.discriminatedUnion("type", [
  /** A push arrived while a tab is open: the pages reload the chats or the likes. */
  z.object({ type: z.literal("NEW_PUSH_MESSAGE"), payload: pushPayloadSchema }),
  /** The notification was clicked: the focused page opens `payload.url`. */
  z.object({ type: z.literal("NEW_PUSH_CLICK"), payload: pushPayloadSchema }),
]);
export type WorkerMessage = z.infer<typeof workerMessageSchema>;

/** POST /api/push-click.php: the worker says a notification was clicked (no e-mail follows it then). */
export const pushClickRequestSchema = z.object({ notification_id: z.number().int().positive().max(2_147_483_647) });

/** POST /api/page-hidden.php (a beacon when the page becomes hidden): empty JSON. */
export const pageHiddenRequestSchema = z.object({}).loose();

/** The one-click unsubscribe link's query (RFC 8058): a signed token naming the member and the category. */
export const unsubscribeQuerySchema = z.object({ token: z.string().max(500) });
export const unsubscribeResponseSchema = z.object({
  ok: z.literal(true),
  category: notificationCategorySchema,
});
