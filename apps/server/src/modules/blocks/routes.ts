import {
  type BlockedMember,
  type blockedMembersResponseSchema,
  blockQuerySchema,
  blockRequestSchema,
  type blockResponseSchema,
} from "@app/contract";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { parseInput } from "../../platform/http/errors.ts";
import { requireUser } from "../accounts/http.ts";
import type { AccountService } from "../accounts/service.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { BlockService } from "./service.ts";

type BlockResponse = z.infer<typeof blockResponseSchema>;

/** POST/DELETE /api/block.php and GET /api/blocks.php (see the contract's blocks.ts). */
export async function blockRoutes(
  app: FastifyInstance,
  {
    accounts,
    profiles,
    blocks,
  }: {
    accounts: AccountService;
    profiles: Pick<ProfileService, "profileIdOfUser" | "isVisibleTo" | "namesOf">;
    blocks: BlockService;
  },
): Promise<void> {
  app.post("/api/block.php", async (request): Promise<BlockResponse> => {
    const user = await requireUser(request, accounts);
    const { id } = parseInput(blockRequestSchema, request.body);
    const own = await profiles.profileIdOfUser(user.id);
    // Only a member one may see can be blocked: the call tells nothing about hidden profiles. Blocking
    // oneself is refused by the service with its own error.
    if (id !== own && !(await profiles.isVisibleTo(id, own))) throw new AppError("not_found");
    await blocks.block(own, id);
    return { blocked: true };
  });

  app.delete("/api/block.php", async (request): Promise<BlockResponse> => {
    const user = await requireUser(request, accounts);
    const { id } = parseInput(blockQuerySchema, request.query ?? {});
    await blocks.unblock(await profiles.profileIdOfUser(user.id), id);
    return { blocked: false };
  });

  app.get("/api/blocks.php", async (request): Promise<z.infer<typeof blockedMembersResponseSchema>> => {
    const user = await requireUser(request, accounts);
    const list = await blocks.listBlocked(await profiles.profileIdOfUser(user.id));
    const names = await profiles.namesOf(list.map((row) => row.profileId));
    const members: BlockedMember[] = list.map((row) => ({
      id: row.profileId,
      name: names.get(row.profileId) ?? "",
      blocked_at: row.blockedAt.toISOString(),
    }));
    return { members };
  });
}
