import { type DataRequestMember, idSchema, STAFF_DATA_REQUESTS_ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import type { Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { AccountService, UserRow } from "../accounts/index.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { SiteService } from "../site/service.ts";
import { actorOf, handleStaff, type StaffService } from "../staff/index.ts";
import { sendExport } from "./routes.ts";
import type { DataExportService } from "./service.ts";

export interface DataRequestRoutesOptions {
  exports: DataExportService;
  accounts: AccountService;
  profiles: Pick<ProfileService, "nameOf">;
  site: SiteService;
  staff: StaffService;
}

/**
 * Members' data requests in the staff console (issue #27): find the member, download their export (the
 * same ZIP as theirs, audited as member.export), start their erasure (audited as member.erase).
 */
export async function dataRequestStaffRoutes(
  app: FastifyInstance,
  { exports, accounts, profiles, site, staff }: DataRequestRoutesOptions,
): Promise<void> {
  const present = async (user: UserRow): Promise<DataRequestMember> => ({
    id: user.id,
    email: user.email,
    name: await profiles.nameOf(user.id),
    status: user.status,
    language: user.language,
    signup_date: user.signupDate.toISOString(),
    deletion_requested_at: user.deletionRequestedAt?.toISOString() ?? null,
  });
  /** A member's account (not a fictional profile's, which has none to export or erase), or not_found. */
  const memberAccount = async (userId: number): Promise<UserRow> => {
    const user = await accounts.findUser(userId);
    if (!user || user.fictional) throw new AppError("not_found");
    return user;
  };

  handleStaff(app, STAFF_DATA_REQUESTS_ENDPOINTS.dataRequestFind, async ({ query }) => {
    const id = /^\d+$/.test(query.q) ? idSchema.safeParse(Number(query.q)) : null;
    const user = id?.success ? await accounts.findUser(id.data) : await accounts.findByEmail(query.q.toLowerCase());
    return { member: user && !user.fictional ? await present(user) : null };
  });

  handleStaff(
    app,
    STAFF_DATA_REQUESTS_ENDPOINTS.dataRequestExport,
    async ({ request, reply, staff: who, params }) => {
      await memberAccount(params.userId);
      // Built first, outside the audit's transaction: the modules read through their own connections
      // (PGlite has one, which an open transaction holds). A download changes nothing; its audit row
      // records who took which member's data, and the download leaves only once that row is written.
      const built = await exports.build(params.userId);
      await staff.audited(
        actorOf(request, who),
        () => ({
          action: "member.export",
          objectType: "member",
          objectId: params.userId,
          memberId: params.userId,
          after: { files: built.files.length, bytes: built.zip.byteLength },
        }),
        async (_tx: Tx) => null,
      );
      return sendExport(reply, built);
    },
    // Support handles many members' requests in an hour; each ZIP is still built in memory.
    { rateLimit: { max: 30, timeWindow: "1 hour" } },
  );

  handleStaff(app, STAFF_DATA_REQUESTS_ENDPOINTS.dataRequestErase, async ({ request, staff: who, params }) => {
    const user = await memberAccount(params.userId);
    const changed = await staff.audited(
      actorOf(request, who),
      (result) => ({
        action: "member.erase",
        objectType: "member",
        objectId: params.userId,
        memberId: params.userId,
        before: { status: result.before },
        after: { status: result.after },
      }),
      async (tx: Tx) => {
        const result = await accounts.startDeletion(tx, params.userId);
        if (!result) throw new AppError("not_found");
        return result;
      },
    );
    // A new erasure (not one already under way): the member's sockets close and the reactivation link goes out.
    if (changed.before !== "pending_deletion") {
      const settings = await site.settingsFor("", "en");
      await accounts.afterDeletionStarted(user, { baseUrl: await site.originFor(""), siteName: settings.name });
    }
    return { member: await present((await accounts.findUser(params.userId)) ?? user) };
  });
}
