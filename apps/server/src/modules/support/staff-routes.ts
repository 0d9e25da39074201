import { STAFF_SUPPORT_ENDPOINTS, staffMay } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../platform/errors.ts";
import type { SupportRefund } from "../payments/index.ts";
import { actorOf, handleStaff, type StaffService, staffOf } from "../staff/index.ts";
import { type Correction, presentPayment, type SupportService } from "./service.ts";

export interface SupportStaffRoutesOptions {
  staff: StaffService;
  support: SupportService;
}

/** Writes per staff member and minute: generous for a person, a brake for a script gone wrong. */
const WRITE_LIMIT = { max: 60, timeWindow: "1 minute" };

/**
 * Support's calls of the staff console (contract staff-support.ts; issue #27). Every write goes through
 * the audit log in the change's own transaction (StaffService.audited).
 */
export async function supportStaffRoutes(app: FastifyInstance, options: SupportStaffRoutesOptions): Promise<void> {
  const { staff, support } = options;
  const endpoints = STAFF_SUPPORT_ENDPOINTS;

  handleStaff(app, endpoints.search, async ({ query }) => ({ members: await support.search(query.q) }));

  handleStaff(app, endpoints.dossier, async ({ staff: me, params }) => support.dossier(params.userId, me.id));

  handleStaff(
    app,
    endpoints.correctCredits,
    async ({ request, staff: me, params, body }) => {
      const correction = await staff.audited<Correction>(
        actorOf(request, me),
        (done) => ({
          action: "credits.correct",
          objectType: "member",
          objectId: params.userId,
          memberId: params.userId,
          before: { balance: done.before },
          after: { balance: done.balance, delta: body.delta, reason: body.reason, key: body.key, replayed: done.replayed },
        }),
        (tx) => support.correctCredits(tx, params.userId, { delta: body.delta, key: body.key }),
      );
      return { balance: correction.balance, replayed: correction.replayed };
    },
    { rateLimit: WRITE_LIMIT },
  );

  handleStaff(
    app,
    endpoints.refund,
    async ({ request, staff: me, params, body }) => {
      const actor = actorOf(request, me);
      const memberId = await support.paymentOwner(params.paymentId);
      const reserved = await staff.audited<SupportRefund>(
        actor,
        (refund) => ({
          action: "payment.refund",
          objectType: "payment",
          objectId: params.paymentId,
          memberId,
          before: { status: refund.payment.status, balance: refund.balance + refund.taken },
          after: refund.replayed
            ? { replayed: true, reason: body.reason }
            : { reason: body.reason, taken: refund.taken, spent: refund.spent, balance: refund.balance },
        }),
        (tx) => support.reserveRefund(tx, params.paymentId),
      );
      const answer = (payment: typeof reserved.payment, balance: number) => ({
        payment: presentPayment(payment),
        taken: reserved.taken,
        spent: reserved.spent,
        balance,
        replayed: reserved.replayed,
      });
      if (reserved.replayed) return answer(reserved.payment, reserved.balance);
      try {
        return answer(await support.sendRefund(reserved), reserved.balance);
      } catch (error) {
        // The provider refused: the credits go back, recorded as well, and the refund may be asked for again.
        await staff.audited<number>(
          actor,
          (balance) => ({
            action: "payment.refund_failed",
            objectType: "payment",
            objectId: params.paymentId,
            memberId,
            after: { given_back: reserved.taken, balance },
          }),
          (tx) => support.undoRefund(tx, reserved),
        );
        throw error;
      }
    },
    { rateLimit: WRITE_LIMIT },
  );

  handleStaff(app, endpoints.openConversations, async ({ request, staff: me, params, body }) => {
    const until = await staff.audited<Date>(
      actorOf(request, me),
      (openUntil) => ({
        action: "member.conversations.open",
        objectType: "member",
        objectId: params.userId,
        memberId: params.userId,
        after: { reason: body.reason, until: openUntil.toISOString() },
      }),
      (tx) => support.openConversations(tx, me.id, params.userId, body.reason),
    );
    return { open_until: until.toISOString() };
  });

  handleStaff(app, endpoints.conversations, async ({ staff: me, params }) => ({
    conversations: await support.conversations(me.id, params.userId),
  }));

  handleStaff(app, endpoints.messages, async ({ staff: me, params }) => ({
    messages: await support.messages(me.id, params.userId, params.conversationId),
  }));

  // A member's photo file for the dossier (every one: pending, rejected and locked ones too). Not JSON,
  // so not a contract endpoint; the same checks as every staff call (dossier's roles).
  app.get<{ Params: { file: string } }>("/staff/api/support/photos/:file", async (request, reply) => {
    const me = await staffOf(request);
    if (!me) throw new AppError("not_found");
    if (!staffMay(me.role, endpoints.dossier)) throw new AppError("staff_forbidden");
    const { file: name } = request.params;
    const file = /^[\w-]{1,100}\.jpg$/.test(name) ? await support.photoFile(`photos/${name}`) : null;
    if (!file) throw new AppError("not_found");
    return reply.header("cache-control", "private, no-store").type("image/jpeg").send(file);
  });
}
