import { STAFF_AUTH_ENDPOINTS, type StaffRole } from "@app/contract";
import type { FastifyInstance } from "fastify";
import type { ModerationQueue } from "../complaints/index.ts";
import type { ModerationService } from "../moderation/service.ts";
import type { OperatorService } from "../operators/service.ts";
import { handleStaff } from "../staff/index.ts";

export interface ConsoleRoutesOptions {
  operators: Pick<OperatorService, "waitingCount">;
  moderation: Pick<ModerationService, "waiting">;
  queue: Pick<ModerationQueue, "activeCounts">;
}

/**
 * The console's start page (issue #27): what waits for each of the staff member's roles, so that a
 * site can be run from here. Each area counts what it owns; only what the role may open is counted.
 */
export async function consoleRoutes(app: FastifyInstance, options: ConsoleRoutesOptions): Promise<void> {
  handleStaff(app, STAFF_AUTH_ENDPOINTS.overview, async ({ staff }) => {
    const may = (...roles: StaffRole[]) => staff.role === "admin" || roles.includes(staff.role);
    const [inbox, review, queue] = await Promise.all([
      may("operator") ? options.operators.waitingCount() : null,
      may("moderator") ? options.moderation.waiting() : null,
      may("moderator", "support") ? options.queue.activeCounts() : null,
    ]);
    return {
      inbox_waiting: inbox,
      review_photos: review?.photos ?? null,
      review_about: review?.about ?? null,
      reports_open: queue && may("moderator") ? queue.reports : null,
      complaints_open: queue && may("support") ? queue.complaints : null,
    };
  });
}
