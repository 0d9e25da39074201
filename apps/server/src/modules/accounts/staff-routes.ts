import { type BanEntry, STAFF_REPORTS_ENDPOINTS as E } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { actorOf, handleStaff } from "../staff/index.ts";
import type { StaffService } from "../staff/service.ts";
import type { BanService, BanView } from "./bans.ts";
import type { AccountService } from "./service.ts";

const presentBan = (ban: BanView): BanEntry => ({
  id: ban.id,
  member_id: ban.userId,
  reason: ban.reason,
  note: ban.note,
  ends_at: ban.endsAt,
  created_at: ban.createdAt,
  created_by: ban.createdBy,
  lifted_at: ban.liftedAt,
  lifted_by: ban.liftedBy,
});

/**
 * Bans from the staff console (issue #27), owned by the accounts module: a member's bans, ban, unban.
 * Each write is one transaction with its audit row; after a ban commits, the member's sockets close.
 */
export async function banStaffRoutes(
  app: FastifyInstance,
  options: { bans: BanService; accounts: Pick<AccountService, "findUser">; staff: StaffService },
): Promise<void> {
  const { bans, staff: staffService } = options;
  const bansOf = async (userId: number) => {
    const [current, history] = await Promise.all([bans.current(userId), bans.history(userId)]);
    return { current: current ? presentBan(current) : null, history: history.map(presentBan) };
  };

  handleStaff(app, E.memberBans, async ({ params }) => {
    if (!(await options.accounts.findUser(params.id))) throw new AppError("not_found");
    return bansOf(params.id);
  });

  handleStaff(app, E.memberBan, async ({ request, staff, params, body }) => {
    await staffService.audited<Awaited<ReturnType<BanService["ban"]>>>(
      actorOf(request, staff),
      (result) => ({
        action: "member.ban",
        objectType: "member",
        objectId: params.id,
        memberId: params.id,
        before: result.replaced,
        after: result.ban,
      }),
      (tx) =>
        bans.ban(tx, {
          userId: params.id,
          reason: body.reason,
          note: body.note,
          endsAt: body.ends_at ? new Date(body.ends_at) : null,
          staffId: staff.id,
        }),
    );
    bans.announce(params.id);
    return bansOf(params.id);
  });

  handleStaff(app, E.memberUnban, async ({ request, staff, params }) => {
    await staffService.audited<BanView>(
      actorOf(request, staff),
      (lifted) => ({
        action: "member.unban",
        objectType: "member",
        objectId: params.id,
        memberId: params.id,
        before: lifted,
        after: null,
      }),
      (tx) => bans.unban(tx, { userId: params.id, staffId: staff.id }),
    );
    return bansOf(params.id);
  });
}
