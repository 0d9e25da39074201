import { MODERATION_QUEUE_PAGE, type ModerationItem, STAFF_MODERATION_ENDPOINTS, staffMay } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import type { PhotoService } from "../photos/service.ts";
import { actorOf, handleStaff, type StaffService, staffOf } from "../staff/index.ts";
import type { AuditedChange, ModerationService, QueueItem } from "./service.ts";

export interface ModerationStaffRoutesOptions {
  moderation: ModerationService;
  staff: Pick<StaffService, "audited">;
  photos: Pick<PhotoService, "bytesOf">;
}

const endpoints = STAFF_MODERATION_ENDPOINTS;
/** Where staff read a photo under review (any status): the member's /cdn/ address refuses pending ones. */
const photoPath = (id: number, size: "thumb" | "full") => `/staff/api/moderation/photos/${id}/${size}`;
const photoParams = z.object({ id: z.coerce.number().int().positive(), size: z.enum(["thumb", "full"]) });

function present(item: QueueItem): ModerationItem {
  const member = { id: item.member.userId, profile_id: item.member.profileId, name: item.member.name };
  const common = { id: item.id, member, submitted_at: item.submittedAt.toISOString(), live: item.live };
  return item.kind === "photo"
    ? {
        kind: "photo",
        ...common,
        is_main: item.isMain,
        private: item.private,
        thumb_url: photoPath(item.id, "thumb"),
        url: photoPath(item.id, "full"),
      }
    : { kind: "about", ...common, text: item.text, approved_text: item.approvedText };
}

/** The review queue of photos and about texts at /staff/moderation (issue #27): moderators and admins. */
export async function moderationStaffRoutes(
  app: FastifyInstance,
  { moderation, staff, photos }: ModerationStaffRoutesOptions,
): Promise<void> {
  handleStaff(app, endpoints.moderationQueue, async ({ query }) => {
    const [items, waiting] = await Promise.all([
      moderation.queue(MODERATION_QUEUE_PAGE, { userId: query.member }),
      moderation.waiting(),
    ]);
    return { items: items.map(present), waiting };
  });

  // Every decision in its own transaction with its audit row (staff.audited).
  handleStaff(app, endpoints.moderationDecide, async ({ request, staff: who, body }) => {
    const actor = actorOf(request, who);
    const audited: AuditedChange = (entry, change) => staff.audited(actor, entry, change);
    // The contract requires a reason to reject; the check here only tells TypeScript so.
    if (body.decision === "reject" && !body.reason) throw new AppError("validation_failed", {}, { reason: "required" });
    const decision =
      body.decision === "reject" && body.reason ? { approve: false as const, reason: body.reason } : { approve: true as const };
    const items = body.items.map((item) => ({ kind: item.kind, id: item.id, submittedAt: new Date(item.submitted_at) }));
    const { decided, stale } = await moderation.decide(audited, items, decision);
    // Nothing decided: say so (the console reloads the queue); a bulk approval with some stale ones lists them.
    if (decided.length === 0) throw new AppError("moderation_decided");
    const ref = ({ kind, id }: { kind: "photo" | "about"; id: number }) => ({ kind, id });
    return { decided: decided.map(ref), stale: stale.map(ref) };
  });

  // The photo's bytes for the queue's moderators, whatever its status: a staff session with the queue's role.
  app.get("/staff/api/moderation/photos/:id/:size", async (request, reply) => {
    reply.header("cache-control", "no-store");
    const who = await staffOf(request);
    if (!who) throw new AppError("not_found");
    if (!staffMay(who.role, endpoints.moderationQueue)) throw new AppError("staff_forbidden");
    const params = photoParams.safeParse(request.params);
    if (!params.success) throw new AppError("not_found");
    const bytes = await photos.bytesOf(params.data.id, params.data.size);
    if (!bytes) throw new AppError("not_found");
    return reply.header("content-type", "image/jpeg").send(bytes);
  });
}
