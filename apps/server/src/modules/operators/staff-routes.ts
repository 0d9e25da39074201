import {
  inboxConversationParamsSchema,
  LOCALES,
  parseRequest,
  STAFF_INBOX_ENDPOINTS,
  type StaffContext,
  staffMay,
} from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { requestHost } from "../../platform/http/request-locale.ts";
import type { SiteService } from "../site/service.ts";
import { actorOf, handleStaff, staffOf } from "../staff/index.ts";
import type { OperatorService } from "./service.ts";

export interface InboxStaffRoutesOptions {
  operators: OperatorService;
  site: SiteService;
}

/** How often an open live stream sends a comment, so that proxies keep it open. */
const KEEPALIVE_MS = 25_000;

/** Typing frames an operator's page may send per minute (it sends one at most every 2 s while typing). */
const TYPING_LIMIT = { max: 60, timeWindow: "1 minute" };

/**
 * The operators' inbox under /staff/api/inbox (issue #27; roles: operator, admin implicit): the queue,
 * a conversation, claim / renew / release, answer, the pair's note, typing, the figures, a like or a
 * first message from a persona, and the live stream of a claimed conversation (server-sent events: the
 * member typing, new messages; see modules/operators/README.md for the choice of transport).
 */
export async function inboxStaffRoutes(app: FastifyInstance, options: InboxStaffRoutesOptions): Promise<void> {
  const { operators, site } = options;
  const endpoints = STAFF_INBOX_ENDPOINTS;
  const rulesOf = async (request: FastifyRequest, language: StaffContext["language"]) => {
    const settings = await site.settingsFor(requestHost(request), language);
    return { maxLength: settings.message_length };
  };

  handleStaff(app, endpoints.inboxQueue, async ({ staff, query }) => operators.queue(staff.id, query.after));
  handleStaff(app, endpoints.inboxFigures, async ({ query }) => operators.figures(query.hours));
  handleStaff(
    app,
    endpoints.inboxGifs,
    async ({ staff, query }) => operators.searchGifs(query.q, LOCALES.find((l) => l.code === staff.language)?.gifLocale),
    { rateLimit: { max: 60, timeWindow: "1 minute" } },
  );
  handleStaff(app, endpoints.inboxConversation, async ({ staff, params }) =>
    operators.conversation(staff.id, params.conversationId),
  );
  handleStaff(app, endpoints.inboxClaim, async ({ request, staff, params }) =>
    operators.claim(actorOf(request, staff), params.conversationId),
  );
  handleStaff(app, endpoints.inboxRenew, async ({ request, staff, params }) =>
    operators.renew(actorOf(request, staff), params.conversationId),
  );
  handleStaff(app, endpoints.inboxRelease, async ({ request, staff, params }) => {
    await operators.release(actorOf(request, staff), params.conversationId);
    return { ok: true as const };
  });
  handleStaff(app, endpoints.inboxAnswer, async ({ request, staff, params, body }) =>
    operators.answer(actorOf(request, staff), params.conversationId, body, await rulesOf(request, staff.language)),
  );
  handleStaff(app, endpoints.inboxNote, async ({ request, staff, params, body }) =>
    operators.saveNote(actorOf(request, staff), params.conversationId, body.text),
  );
  handleStaff(
    app,
    endpoints.inboxTyping,
    async ({ staff, params, body }) => {
      await operators.typing(staff.id, params.conversationId, body.typing);
      return { ok: true as const };
    },
    { rateLimit: TYPING_LIMIT },
  );
  handleStaff(app, endpoints.inboxPersonaLike, async ({ request, staff, body }) =>
    operators.likeAsPersona(actorOf(request, staff), body.persona_id, body.member_id),
  );
  handleStaff(app, endpoints.inboxPersonaMessage, async ({ request, staff, body }) =>
    operators.messageAsPersona(actorOf(request, staff), body, await rulesOf(request, staff.language)),
  );

  // Photos for the operator's view, with the staff API's refusals (no staff session 404, another role
  // 403) and kept out of caches: one of the conversation's history (served to the two members only on
  // the member side), and the thumbnail of one of the persona's photos offered to send (private ones
  // too: /cdn would answer the operator, who has no member session, as a visitor).
  const staffPhoto = (kind: string, read: (conversationId: number, id: number) => Promise<Buffer>) =>
    app.get<{ Params: { conversationId: string; file: string } }>(
      `/staff/api/inbox/:conversationId/${kind}/:file`,
      async (request, reply) => {
        const staff = await staffOf(request);
        if (!staff) throw new AppError("not_found");
        if (!staffMay(staff.role, endpoints.inboxConversation)) throw new AppError("staff_forbidden");
        const { conversationId } = parseRequest(inboxConversationParamsSchema, request.params);
        const id = Number(/^(\d{1,9})\.jpg$/.exec(request.params.file)?.[1]);
        if (!Number.isInteger(id) || id <= 0) throw new AppError("not_found");
        const bytes = await read(conversationId, id);
        return reply.header("cache-control", "private, no-store").type("image/jpeg").send(bytes);
      },
    );
  staffPhoto("photos", (conversationId, messageId) => operators.photo(conversationId, messageId));
  staffPhoto("persona-photos", (conversationId, photoId) => operators.personaPhotoThumb(conversationId, photoId));

  // The live stream of a claimed conversation: refused as the staff API refuses (no staff session 404,
  // another role 403, not the claimer 409), then server-sent events until the page leaves.
  const streams = new Set<() => void>();
  // Stopping (decision 033): the streams end before the server waits for its connections to close
  // (the page's EventSource reconnects to another node).
  app.addHook("preClose", async () => {
    for (const end of streams) end();
  });
  app.get("/staff/api/inbox/:conversationId/live", async (request, reply) => {
    reply.header("cache-control", "no-store");
    const staff = await staffOf(request);
    if (!staff) throw new AppError("not_found");
    if (!staffMay(staff.role, endpoints.inboxConversation)) throw new AppError("staff_forbidden");
    const { conversationId } = parseRequest(inboxConversationParamsSchema, request.params ?? {});
    const raw = reply.raw;
    const unsubscribe = await operators.watch(staff.id, conversationId, (event) => {
      raw.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    reply.hijack();
    raw.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    raw.write(": open\n\n");
    const keepalive = setInterval(() => raw.write(": keepalive\n\n"), KEEPALIVE_MS);
    const end = () => {
      clearInterval(keepalive);
      streams.delete(end);
      unsubscribe().catch((err: unknown) => request.log.error({ err }, "inbox stream unsubscribe failed"));
      if (!raw.writableEnded) raw.end();
    };
    streams.add(end);
    request.raw.on("close", end);
  });
}
