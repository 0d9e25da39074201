import { z } from "zod";
import { idQueryValueSchema, idSchema } from "./http.ts";

/**
 * Spec §6 blocking (payloads "not shown" there; ours): POST /api/block.php `{ id }` blocks a member's
 * profile, DELETE /api/block.php?id= unblocks, both answer `{ blocked }`. GET /api/blocks.php lists
 * whom the member blocked. A blocked member asking for the blocker's profile gets 403 `blocked_by`
 * ("You're blocked by {name}. You do not have access to this page.").
 */
export const blockRequestSchema = z.object({ id: idSchema }).strict();
export const blockQuerySchema = z.object({ id: idQueryValueSchema });
export const blockResponseSchema = z.object({ blocked: z.boolean() });
export type BlockResponse = z.infer<typeof blockResponseSchema>;

export const blockedMemberSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** ISO 8601. */
  blocked_at: z.string(),
});
export type BlockedMember = z.infer<typeof blockedMemberSchema>;
export const blockedMembersResponseSchema = z.object({ members: z.array(blockedMemberSchema) });
export type BlockedMembersResponse = z.infer<typeof blockedMembersResponseSchema>;
