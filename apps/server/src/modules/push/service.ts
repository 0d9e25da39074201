import { createHash, ECDH } from "node:crypto";
import type { PushPayload, PushState, PushSubscriptionJson, PushSubscriptionRequest } from "@app/contract";
import ipaddr from "ipaddr.js";
import webpush from "web-push";
import { type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import type { Db } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import {
  deleteRefusal,
  deleteSubscription,
  deleteSubscriptionById,
  insertRefusal,
  pruneDeliveries,
  pushFacts,
  pushRecordsOf,
  recordAccepted,
  recordFailure,
  type SubscriptionRow,
  subscriptionsToSend,
  trimSubscriptions,
  upsertSubscription,
} from "./queries.ts";
import type { VapidKeys } from "./vapid.ts";

/** A member's devices with push at most; a further one drops the least recently refreshed. */
export const MAX_DEVICES = 10;
/** How long a push service keeps a push for a device that is offline (4 h: later news is stale). */
export const PUSH_TTL_SECONDS = 4 * 60 * 60;
/** Failed sends in a row (429, 5xx, no answer) after which a subscription counts as dead and goes. */
export const MAX_FAILURES = 25;
/** How long the push service has to answer one push. */
const SEND_TIMEOUT_MS = 10_000;
const DAY = 24 * 60 * 60 * 1000;

export interface PushServiceOptions {
  keys: VapidKeys;
  /** The VAPID subject (mailto: or https:): VAPID_SUBJECT, else the default site's support address. */
  subject: () => Promise<string>;
  /** Push service origins allowed over plain http or on a private address (PUSH_HTTP_ORIGINS: a local stand-in). */
  httpOrigins?: readonly string[];
  log: { error(obj: unknown, msg?: string): void; warn?(obj: unknown, msg?: string): void };
  timeoutMs?: number;
}

export interface SendOptions {
  /**
   * The caller's idempotency key of this push (e.g. `message:123`): a device that accepted it is not
   * sent it again, so a job that runs again after a partial failure reaches only the others.
   */
  key: string;
}

/** What a send did: devices that accepted the push, subscriptions removed (gone, or dead), devices left to retry. */
export interface PushResult {
  accepted: number;
  removed: number;
  /** Devices whose push service answered 429, 5xx or nothing: a retry with the same key reaches them. */
  failed: number;
  /** Devices whose push service refused this push for good (another 4xx): not retried. */
  refused: number;
}

/**
 * Thrown by `send` when some devices failed for now (429, 5xx, no answer), after recording the ones
 * that accepted: a durable job lets it fail its run and is retried with backoff; the same key then
 * sends only to the devices still without the push.
 */
export class PushRetryError extends Error {
  constructor(readonly result: PushResult) {
    super(`push: ${result.failed} device(s) to retry`);
  }
}

type Outcome = "accepted" | "gone" | "failed" | "refused";

/**
 * Web push (issue #28): members' subscriptions per device, the refusal ('denied'), the account's push
 * state, and sending an encrypted push (RFC 8291, aes128gcm) signed with our VAPID key (RFC 8292) through
 * the `web-push` library. See README.md.
 */
export class PushService {
  private readonly httpOrigins: ReadonlySet<string>;

  constructor(
    private readonly db: Db,
    private readonly options: PushServiceOptions,
  ) {
    this.httpOrigins = new Set((options.httpOrigins ?? []).map((origin) => new URL(origin).origin));
  }

  /** The VAPID public key (base64url, 65-byte point): settings' push_public_key, what browsers subscribe with. */
  get publicKey(): string {
    return this.options.keys.publicKey;
  }

  /**
   * Spec §3, §7, §8: POST /api/user.php?push=1. A subscription stores this device's (by endpoint: new,
   * refreshed, or moved from another member) and ends a refusal; false removes the device's at
   * `endpoint` (and the refusal: the member is back to "not subscribed"); 'denied' records the refusal.
   */
  async update(userId: number, request: PushSubscriptionRequest, userAgent: string | null): Promise<void> {
    const { subscription } = request;
    if (subscription === "denied") return insertRefusal(this.db, userId);
    if (subscription === false) {
      await this.db.transaction(async (tx) => {
        if (request.endpoint) await deleteSubscription(tx, userId, request.endpoint);
        await deleteRefusal(tx, userId);
      });
      return;
    }
    this.check(subscription);
    await this.db.transaction(async (tx) => {
      await upsertSubscription(tx, {
        userId,
        endpoint: subscription.endpoint,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
        userAgent: userAgent?.slice(0, 300) ?? null,
      });
      await trimSubscriptions(tx, userId, MAX_DEVICES);
      await deleteRefusal(tx, userId);
    });
  }

  /** Spec §3 push subscription of the account: true with a subscribed device, else 'denied' if refused, else false. */
  async stateOf(userId: number): Promise<PushState> {
    const { subscribed, refused } = await pushFacts(this.db, userId);
    return subscribed ? true : refused ? "denied" : false;
  }

  /**
   * Sends `payload` to each of the member's devices that has not accepted `key` yet, at once. A 404 or 410
   * removes that subscription (the browser dropped it); 429, 5xx or no answer count a failure and, after
   * the others are recorded, throw PushRetryError (see there); another 4xx is logged and not retried.
   * Returns what happened; accepted 0 with nothing failed means the member has no reachable device.
   */
  async send(userId: number, payload: PushPayload, options: SendOptions): Promise<PushResult> {
    const devices = await subscriptionsToSend(this.db, userId, options.key);
    const result: PushResult = { accepted: 0, removed: 0, failed: 0, refused: 0 };
    if (devices.length === 0) return result;
    const body = JSON.stringify(payload);
    const subject = await this.options.subject();
    const outcomes = await Promise.all(devices.map((device) => this.sendTo(device, body, payload, subject)));
    for (const [index, outcome] of outcomes.entries()) {
      const device = devices[index] as SubscriptionRow;
      if (outcome === "accepted") {
        await recordAccepted(this.db, device.id, options.key);
        result.accepted++;
      } else if (outcome === "gone") {
        await deleteSubscriptionById(this.db, device.id);
        result.removed++;
      } else if (outcome === "failed") {
        if ((await recordFailure(this.db, device.id)) >= MAX_FAILURES) {
          await deleteSubscriptionById(this.db, device.id);
          result.removed++;
        } else result.failed++;
      } else result.refused++;
    }
    if (result.failed > 0) throw new PushRetryError(result);
    return result;
  }

  /**
   * The push part of the data export (GDPR art. 15): each device's push service, browser and dates, and
   * a refusal. Not the endpoint's path or the keys: they are the device's secrets for receiving.
   */
  async exportFor({ userId }: ExportSubject): Promise<ExportPart> {
    const { devices, refusedAt } = await pushRecordsOf(this.db, userId);
    if (devices.length === 0 && !refusedAt) return { json: {} };
    return {
      json: {
        push: {
          devices: devices.map((device) => ({
            push_service: URL.canParse(device.endpoint) ? new URL(device.endpoint).origin : null,
            browser: device.userAgent,
            subscribed_at: isoOrNull(device.createdAt),
            last_sent_at: isoOrNull(device.lastSentAt),
          })),
          refused_at: isoOrNull(refusedAt),
        },
      },
    };
  }

  /** Forgets which devices accepted which push after a day (a push lives PUSH_TTL_SECONDS). */
  pruneDeliveries(now = new Date()): Promise<void> {
    return pruneDeliveries(this.db, new Date(now.getTime() - DAY));
  }

  /** One device's push: encrypted and signed by web-push, posted by us, classified by the answer. */
  private async sendTo(device: SubscriptionRow, body: string, payload: PushPayload, subject: string): Promise<Outcome> {
    if (this.endpointProblem(device.endpoint)) return "gone";
    let request: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      request = webpush.generateRequestDetails(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        body,
        {
          vapidDetails: { subject, publicKey: this.options.keys.publicKey, privateKey: this.options.keys.privateKey },
          TTL: PUSH_TTL_SECONDS,
          contentEncoding: "aes128gcm",
          // A message wakes the device now; a like or a match may wait for a good moment.
          urgency: payload.kind === "message" ? "high" : "normal",
          // One pending push per tag at the push service (a newer one for the conversation replaces it).
          topic: createHash("sha256").update(payload.tag).digest("base64url").slice(0, 32),
        },
      );
    } catch (err) {
      // Our side (a subject web-push refuses, say): trying again would not help.
      this.options.log.error({ err, subscription: device.id }, "push: the request could not be made");
      return "refused";
    }
    let status: number;
    try {
      // web-push's own sender speaks only https; fetch also gives a timeout and no redirects.
      const response = await fetch(request.endpoint, {
        method: "POST",
        headers: Object.fromEntries(
          Object.entries(request.headers)
            .filter(([name]) => name.toLowerCase() !== "content-length")
            .map(([name, value]) => [name, String(value)]),
        ),
        body: request.body ? new Uint8Array(request.body) : null,
        redirect: "manual",
        signal: AbortSignal.timeout(this.options.timeoutMs ?? SEND_TIMEOUT_MS),
      });
      await response.body?.cancel();
      status = response.status;
    } catch (err) {
      this.options.log.warn?.({ err, subscription: device.id }, "push: no answer from the push service");
      return "failed";
    }
    if (status >= 200 && status < 300) return "accepted";
    // RFC 8030 §7.3: the subscription expired or was removed.
    if (status === 404 || status === 410) return "gone";
    if (status === 429 || status >= 500) return "failed";
    this.options.log.error({ status, subscription: device.id }, "push: refused by the push service");
    return "refused";
  }

  /** Refuses (validation_failed, nothing stored) a subscription we could never send to. */
  private check(subscription: PushSubscriptionJson): void {
    const fields: Record<string, string> = {};
    if (this.endpointProblem(subscription.endpoint)) fields["subscription.endpoint"] = "invalid_value";
    if (!isP256Point(subscription.keys.p256dh)) fields["subscription.keys.p256dh"] = "invalid_value";
    if (Buffer.from(subscription.keys.auth, "base64url").length !== 16) fields["subscription.keys.auth"] = "invalid_value";
    if (Object.keys(fields).length) throw new AppError("validation_failed", {}, fields);
  }

  /**
   * Whether we refuse to POST to this endpoint: every push service is https on a public address; plain
   * http, a private or loopback address or credentials in the URL would let a member point our server
   * at internal services. PUSH_HTTP_ORIGINS names the exceptions (a local stand-in).
   */
  private endpointProblem(endpoint: string): boolean {
    if (!URL.canParse(endpoint)) return true;
    const url = new URL(endpoint);
    if (this.httpOrigins.has(url.origin)) return false;
    if (url.protocol !== "https:" || url.username || url.password) return true;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (host === "localhost" || host.endsWith(".localhost")) return true;
    return ipaddr.isValid(host) && ipaddr.process(host).range() !== "unicast";
  }
}

/** Whether a base64url string is an uncompressed P-256 point (65 bytes, on the curve). */
function isP256Point(value: string): boolean {
  const bytes = Buffer.from(value, "base64url");
  if (bytes.length !== 65 || bytes[0] !== 4) return false;
  try {
    ECDH.convertKey(bytes, "prime256v1");
    return true;
  } catch {
    return false;
  }
}
