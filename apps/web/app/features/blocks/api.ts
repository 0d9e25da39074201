import { blockedMembersResponseSchema, blockResponseSchema } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import { jsonBody, sessionCall } from "../../lib/api";

/** POST /api/block.php: block a member's profile. */
export function blockMember(id: number) {
  return sessionCall("/api/block.php", blockResponseSchema, jsonBody("POST", { id }));
}

/** DELETE /api/block.php?id=: unblock. */
export function unblockMember(id: number) {
  return sessionCall(`/api/block.php?id=${encodeURIComponent(String(id))}`, blockResponseSchema, { method: "DELETE" });
}

/** GET /api/blocks.php: whom the member blocked, most recent first. */
export async function getBlockedMembers() {
  const { members } = await sessionCall("/api/blocks.php", blockedMembersResponseSchema);
  return members;
}

/** The blocked members in the query cache (decision 013): loaded when settings open, not kept after (gcTime 0). */
export const blockedMembersQuery = queryOptions({ queryKey: ["blocked-members"], queryFn: getBlockedMembers, gcTime: 0 });
