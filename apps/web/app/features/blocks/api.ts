import { ENDPOINTS } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import { callEndpoint } from "../../lib/api";

/** POST /api/block.php: block a member's profile. */
export function blockMember(id: number) {
  return callEndpoint(ENDPOINTS.block, { body: { id } });
}

/** DELETE /api/block.php?id=: unblock. */
export function unblockMember(id: number) {
  return callEndpoint(ENDPOINTS.unblock, { query: { id } });
}

/** GET /api/blocks.php: whom the member blocked, most recent first. */
export async function getBlockedMembers() {
  const { members } = await callEndpoint(ENDPOINTS.blocked);
  return members;
}

/** The blocked members in the query cache (decision 013): loaded when settings open, not kept after (gcTime 0). */
export const blockedMembersQuery = queryOptions({ queryKey: ["blocked-members"], queryFn: getBlockedMembers, gcTime: 0 });
