import { useMatches } from "react-router";

/**
 * Spec §2: "the members area means the routes members, members-id, chats, likes, likes-m-id and
 * premium". These are the route ids of routes.ts (members-id and likes-m-id share a module, so the id,
 * not the file, decides; /chats/{id} is chats-id and not part of it).
 */
export const MEMBERS_AREA_ROUTE_IDS = ["members", "members-id", "chats", "likes", "likes-m-id", "premium"] as const;

/** Whether the page being shown is in the members area (the time-bonus banner and modal, spec §2 and §4). */
export function inMembersArea(routeIds: readonly string[]): boolean {
  return routeIds.some((id) => (MEMBERS_AREA_ROUTE_IDS as readonly string[]).includes(id));
}

export function useInMembersArea(): boolean {
  return inMembersArea(useMatches().map((match) => match.id));
}
