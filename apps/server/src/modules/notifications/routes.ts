import { timingSafeEqual } from "node:crypto";
import { assertUsableInput, ENDPOINTS, InputRefusedError, PAGE_VISIBILITY_HEADER, parseJsonInput } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { handle, memberOf } from "../../platform/http/endpoint.ts";
import { t } from "../../platform/i18n.ts";
import type { Presence } from "./presence.ts";
import type { NotificationService } from "./service.ts";

/**
 * The member's side of notifications (issue #28): the page-hidden beacon, a push click, and RFC 8058's
 * one-click unsubscribe, which mail providers POST as a form (`List-Unsubscribe=One-Click`) or empty.
 */
export async function notificationRoutes(
  app: FastifyInstance,
  { notifications, presence }: { notifications: NotificationService; presence: Pick<Presence, "away"> },
): Promise<void> {
  handle(app, ENDPOINTS.pageHidden, async ({ member }) => {
    if (member) await presence.away(member.userId);
    return { ok: true as const };
  });

  handle(app, ENDPOINTS.pushClick, async ({ member, body }) => {
    await notifications.clicked(member.userId, body.notification_id);
    return { ok: true as const };
  });

  await app.register(async (scope) => {
    // The mail client's form body says only "One-Click"; the token in the URL is what counts.
    scope.addContentTypeParser(
      // RFC 8058 allows either form encoding.
      ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"],
      { parseAs: "string", bodyLimit: 4096 },
      (_request, _body, done) => done(null, {}),
    );
    handle(scope, ENDPOINTS.unsubscribe, async ({ query }) => ({
      ok: true as const,
      category: await notifications.unsubscribe(query.token),
    }));
  });
}

/**
 * The client's poll of GET /api/user.php from a visible page (`X-Page-Visibility: visible`) is a sign of
 * presence, beside the socket's: a member whose socket is down but who looks at the page is not sent an
 * e-mail for what the poll shows them. Root-level (the accounts module's route), after the answer.
 */
export function registerPollPresence(app: FastifyInstance, presence: Pick<Presence, "here">): void {
  app.addHook("onResponse", async (request, reply) => {
    if (request.method !== "GET" || request.routeOptions.url !== ENDPOINTS.user.path || reply.statusCode !== 200) return;
    if (String(request.headers[PAGE_VISIBILITY_HEADER] ?? "").toLowerCase() !== "visible") return;
    const member = await memberOf(request).catch(() => null);
    if (member) await presence.here(member.userId).catch((err: unknown) => request.log.error({ err }, "presence update failed"));
  });
}

/** Our own shape of mail events (README): a batch of bounces and complaints. */
const ownEventsSchema = z.object({
  events: z
    .array(z.object({ type: z.enum(["bounce", "complaint"]), email: z.string().max(254), permanent: z.boolean().optional() }))
    .max(1000),
});
/** SendGrid's event webhook: an array of events; bounce (type "blocked" is a soft one), dropped, spamreport. */
const sendgridEventsSchema = z
  .array(
    z.looseObject({
      email: z.string().max(254),
      event: z.string().max(50),
      type: z.string().max(50).optional(),
      reason: z.string().max(2000).optional(),
    }),
  )
  .max(1000);
/** Postmark's bounce and spam-complaint webhooks: one record per call. */
const postmarkEventSchema = z.looseObject({
  RecordType: z.string().max(50),
  Email: z.string().max(254),
  Type: z.string().max(50).optional(),
});
const POSTMARK_HARD = new Set(["HardBounce", "BadEmailAddress", "ManuallyDeactivated", "SpamNotification"]);

type MailEvent = { email: string; reason: "bounce" | "fbl" };

/** The accepted shapes as (address, reason) pairs; soft bounces and other events are left out. Null: no shape fits. */
export function mailEventsOf(body: unknown): MailEvent[] | null {
  const own = ownEventsSchema.safeParse(body);
  if (own.success)
    return own.data.events.flatMap((e): MailEvent[] =>
      e.type === "complaint"
        ? [{ email: e.email, reason: "fbl" }]
        : e.permanent === false
          ? []
          : [{ email: e.email, reason: "bounce" }],
    );
  const sendgrid = sendgridEventsSchema.safeParse(body);
  if (sendgrid.success)
    return sendgrid.data.flatMap((e): MailEvent[] => {
      if (e.event === "spamreport") return [{ email: e.email, reason: "fbl" }];
      if (e.event === "bounce" && e.type !== "blocked") return [{ email: e.email, reason: "bounce" }];
      if (e.event === "dropped" && /bounce|invalid/i.test(e.reason ?? "")) return [{ email: e.email, reason: "bounce" }];
      if (e.event === "dropped" && /spam/i.test(e.reason ?? "")) return [{ email: e.email, reason: "fbl" }];
      return [];
    });
  const postmark = postmarkEventSchema.safeParse(body);
  if (postmark.success) {
    const e = postmark.data;
    if (e.RecordType === "SpamComplaint") return [{ email: e.Email, reason: "fbl" }];
    if (e.RecordType === "Bounce" && POSTMARK_HARD.has(e.Type ?? "")) return [{ email: e.Email, reason: "bounce" }];
    return [];
  }
  return null;
}

/** `Authorization: Bearer <secret>`, or HTTP basic with the secret as password (or user name). */
function authorized(request: FastifyRequest, secret: string): boolean {
  const header = String(request.headers.authorization ?? "");
  const candidates: string[] = [];
  if (/^bearer /i.test(header)) candidates.push(header.slice(7).trim());
  if (/^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    candidates.push(colon >= 0 ? decoded.slice(colon + 1) : decoded, colon >= 0 ? decoded.slice(0, colon) : "");
  }
  const expected = Buffer.from(secret);
  return candidates.some((given) => {
    const value = Buffer.from(given);
    return value.length === expected.length && timingSafeEqual(value, expected);
  });
}

/**
 * POST /hooks/mail-events (README "Bounces and complaints"): the mail provider's bounces and spam
 * complaints, authenticated with MAIL_EVENTS_SECRET; not there at all without it (404).
 */
export async function mailEventRoutes(
  app: FastifyInstance,
  { notifications, secret }: { notifications: Pick<NotificationService, "mailEvent">; secret: string | undefined },
): Promise<void> {
  if (!secret) return;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string", bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
  app.post("/hooks/mail-events", async (request, reply) => {
    if (!authorized(request, secret)) {
      return reply
        .status(401)
        .header("www-authenticate", 'Basic realm="mail-events"')
        .send({ error: "authentication_required", message: t("en", "error.authentication_required") });
    }
    let body: unknown;
    try {
      body = parseJsonInput(typeof request.body === "string" ? request.body : "");
      assertUsableInput(body);
    } catch (error) {
      if (error instanceof InputRefusedError) throw error;
      throw new AppError("mail_events_invalid");
    }
    const events = mailEventsOf(body);
    if (!events) throw new AppError("mail_events_invalid");
    let changed = 0;
    for (const event of events) if (await notifications.mailEvent(event.email, event.reason)) changed++;
    return { ok: true, changed };
  });
}
