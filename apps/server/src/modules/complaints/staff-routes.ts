import {
  STAFF_REPORTS_ENDPOINTS as E,
  isLocaleCode,
  type QueueItemView,
  type ReportContentView,
  type StaffContext,
  type StaffRole,
  staffMay,
} from "@app/contract";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../platform/errors.ts";
import type { BanService } from "../accounts/index.ts";
import { actorOf, handleStaff, staffOf } from "../staff/index.ts";
import type { StaffService } from "../staff/service.ts";
import type { Handling, ModerationQueue, QueueChange, QueueItem, QueueKind } from "./queue.ts";

/** The kinds of the queue a role handles: moderators reports, support complaints, admin both. */
const KINDS: Record<StaffRole, readonly QueueKind[]> = {
  admin: ["report", "complaint"],
  moderator: ["report"],
  support: ["complaint"],
  operator: [],
};

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A queue item as the console shows it (contract staff-reports.ts): explicit fields, no row leaves as is. */
export function presentQueueItem(item: QueueItem, staffNames: ReadonlyMap<number, string> = new Map()): QueueItemView {
  const { row } = item;
  const handling = {
    id: row.id,
    status: row.status as QueueItemView["status"],
    created_at: row.createdAt.toISOString(),
    assigned_to: row.assignedTo,
    assigned_to_name: row.assignedTo === null ? null : (staffNames.get(row.assignedTo) ?? null),
    resolution: row.resolution,
    closed_at: iso(row.closedAt),
  };
  if (item.kind === "report") {
    const { content } = item;
    const shown: ReportContentView =
      content.type === "profile"
        ? content
        : {
            type: "message",
            sender_name: content.sender_name,
            kind: content.kind,
            text: content.text,
            gift_id: content.gift_id,
            gif_url: content.gif_url,
            has_photo: content.photo_key !== null,
            sent_at: content.sent_at,
          };
    return {
      kind: "report",
      ...handling,
      reason: item.row.reason as Extract<QueueItemView, { kind: "report" }>["reason"],
      text: item.row.text,
      object_type: item.row.objectType as "profile" | "message",
      member_id: item.row.userId,
      profile_id: item.row.profileId,
      reporter_id: item.row.reporterId,
      content: shown,
    };
  }
  return {
    kind: "complaint",
    ...handling,
    reference: item.row.reference,
    subject: item.row.subject as Extract<QueueItemView, { kind: "complaint" }>["subject"],
    description: item.row.description,
    email: item.row.email,
    locale: isLocaleCode(item.row.locale) ? item.row.locale : "en",
    complainant_id: item.row.userId,
    profile_id: item.row.profileId,
    answers: item.answers.map((a) => ({ id: a.id, staff_id: a.staffId, text: a.text, created_at: a.createdAt.toISOString() })),
  };
}

export interface QueueStaffRoutesOptions {
  queue: ModerationQueue;
  bans: BanService;
  staff: StaffService;
  /** A reported photo message's file, while the chat still keeps it. */
  chatPhoto: (key: string) => Promise<Buffer | null>;
}

/**
 * The staff queue of reports and complaints (issue #27): thin handlers, every write one transaction with
 * its audit row (`staff.audited`).
 */
export async function queueStaffRoutes(app: FastifyInstance, options: QueueStaffRoutesOptions): Promise<void> {
  const { queue, bans, staff: staffService } = options;
  /** Who handles what, by name (a few dozen staff accounts: read whole). */
  const staffNames = async () => new Map((await staffService.list()).map((account) => [account.id, account.name] as const));
  const answer = async (kind: QueueKind, id: number) => {
    const [item, names] = await Promise.all([queue.item(kind, id), staffNames()]);
    if (!item) throw new AppError("not_found");
    return { item: presentQueueItem(item, names) };
  };
  const handling = (kind: QueueKind, action: string, id: number, memberId: number | null = null) => ({
    action: `${kind}.${action}`,
    objectType: kind,
    objectId: id,
    memberId,
  });
  const assign = (kind: QueueKind) => async (request: Parameters<typeof actorOf>[0], staff: StaffContext, id: number) => {
    await staffService.audited<QueueChange<Handling>>(
      actorOf(request, staff),
      (change) => ({ ...handling(kind, "assign", id), ...change }),
      (tx) => queue.assign(tx, kind, id, staff.id),
    );
    return answer(kind, id);
  };

  handleStaff(app, E.queue, async ({ staff, query }) => {
    const [items, names] = await Promise.all([queue.list({ kinds: KINDS[staff.role], status: query.status }), staffNames()]);
    return { items: items.map((item) => presentQueueItem(item, names)) };
  });

  // The photo of a reported photo message (JPEG, so not a JSON call of the table): to those who handle
  // reports, refused as the staff API refuses; 404 once the chat no longer keeps the file.
  app.get<{ Params: { id: string } }>("/staff/api/reports/:id/photo.jpg", async (request, reply) => {
    const staff = await staffOf(request);
    if (!staff) throw new AppError("not_found");
    if (!staffMay(staff.role, E.reportDismiss)) throw new AppError("staff_forbidden");
    const id = Number(request.params.id);
    if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw new AppError("not_found");
    const item = await queue.item("report", id);
    const key = item?.kind === "report" && item.content.type === "message" ? item.content.photo_key : null;
    const bytes = key ? await options.chatPhoto(key) : null;
    if (!bytes) throw new AppError("not_found");
    return reply.header("cache-control", "private, no-store").type("image/jpeg").send(bytes);
  });

  handleStaff(app, E.reportAssign, ({ request, staff, params }) => assign("report")(request, staff, params.id));
  handleStaff(app, E.complaintAssign, ({ request, staff, params }) => assign("complaint")(request, staff, params.id));

  handleStaff(app, E.reportDismiss, async ({ request, staff, params, body }) => {
    await staffService.audited<QueueChange<Handling>>(
      actorOf(request, staff),
      (change) => ({ ...handling("report", "dismiss", params.id), ...change }),
      (tx) => queue.close(tx, "report", params.id, staff.id, body.resolution),
    );
    return answer("report", params.id);
  });

  // A ban from a report: the reported member banned and the report closed, one transaction, one audit row.
  handleStaff(app, E.reportBan, async ({ request, staff, params, body }) => {
    const done = await staffService.audited<{
      userId: number;
      ban: Awaited<ReturnType<BanService["ban"]>>;
      closed: QueueChange<Handling>;
    }>(
      actorOf(request, staff),
      (result) => ({
        ...handling("report", "ban", params.id, result.userId),
        before: { report: result.closed.before, ban: result.ban.replaced },
        after: { report: result.closed.after, ban: result.ban.ban },
      }),
      async (tx) => {
        const report = await queue.openReport(tx, params.id);
        if (report.userId === null) throw new AppError("not_found");
        const ban = await bans.ban(tx, {
          userId: report.userId,
          reason: body.reason,
          note: body.note,
          endsAt: body.ends_at ? new Date(body.ends_at) : null,
          staffId: staff.id,
        });
        const closed = await queue.close(tx, "report", params.id, staff.id, body.resolution || `ban: ${body.reason}`);
        return { userId: report.userId, ban, closed };
      },
    );
    bans.announce(done.userId);
    return answer("report", params.id);
  });

  handleStaff(app, E.complaintAnswer, async ({ request, staff, params, body }) => {
    await staffService.audited<Awaited<ReturnType<ModerationQueue["answer"]>>>(
      actorOf(request, staff),
      (result) => ({
        ...handling("complaint", "answer", params.id, result.memberId),
        before: result.before,
        after: { ...result.after, answer: { id: result.answer.id, text: result.answer.text } },
      }),
      (tx) => queue.answer(tx, params.id, staff.id, { text: body.text }),
    );
    return answer("complaint", params.id);
  });

  handleStaff(app, E.complaintClose, async ({ request, staff, params, body }) => {
    await staffService.audited<QueueChange<Handling>>(
      actorOf(request, staff),
      (change) => ({ ...handling("complaint", "close", params.id), ...change }),
      (tx) => queue.close(tx, "complaint", params.id, staff.id, body.resolution),
    );
    return answer("complaint", params.id);
  });
}
