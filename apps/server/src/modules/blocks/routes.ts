import { type BlockedMember, ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { handle } from "../../platform/http/endpoint.ts";
import type { ProfileService } from "../profiles/index.ts";
import type { VisibilityPolicy } from "../visibility/index.ts";
import type { BlockService } from "./service.ts";

/** POST/DELETE /api/block.php and GET /api/blocks.php (see the contract's blocks.ts). */
export async function blockRoutes(
  app: FastifyInstance,
  {
    profiles,
    blocks,
    visibility,
  }: {
    profiles: Pick<ProfileService, "namesOf">;
    blocks: BlockService;
    visibility: Pick<VisibilityPolicy, "canSee">;
  },
): Promise<void> {
  handle(app, ENDPOINTS.block, async ({ member, body: { id } }) => {
    // Only a member one may see can be blocked: the call tells nothing about hidden profiles. Blocking
    // oneself is refused by the service with its own error.
    if (id !== member.profileId && !(await visibility.canSee(member.profileId, id))) throw new AppError("not_found");
    await blocks.block(member.profileId, id);
    return { blocked: true };
  });

  handle(app, ENDPOINTS.unblock, async ({ member, query }) => {
    await blocks.unblock(member.profileId, query.id);
    return { blocked: false };
  });

  handle(app, ENDPOINTS.blocked, async ({ member }) => {
    const list = await blocks.listBlocked(member.profileId);
    const names = await profiles.namesOf(list.map((row) => row.profileId));
    const members: BlockedMember[] = list.map((row) => ({
      id: row.profileId,
      name: names.get(row.profileId) ?? "",
      blocked_at: row.blockedAt.toISOString(),
    }));
    return { members };
  });
}
