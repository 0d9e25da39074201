import { ENDPOINTS, type LikeType } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import { callEndpoint } from "../../lib/api";
import { BADGES_KEY, LIKES_KEY } from "./keys";

/** POST /api/like.php: like a profile; the answer says the new state and whether it made a match. */
export function likeProfile(id: number) {
  return callEndpoint(ENDPOINTS.like, { body: { id } });
}

/** DELETE /api/like.php?id=: take a like back. */
export function unlikeProfile(id: number) {
  return callEndpoint(ENDPOINTS.unlike, { query: { id } });
}

/** GET /api/auto-like.php: a fictional profile that has just liked the member, or null. */
export async function getAutoLike() {
  const { profile } = await callEndpoint(ENDPOINTS.autoLike);
  return profile;
}

/** The browser's IANA time zone: the swipe game's day is the member's local day. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** GET /api/swipe.php: the next candidates and the day's limits. */
export function getSwipeCandidates() {
  return callEndpoint(ENDPOINTS.swipeCandidates, { query: { tz: browserTimeZone() } });
}

/** POST /api/swipe.php: like (true) or pass (false) one candidate. */
export function swipeProfile(id: number, like: boolean) {
  const tz = browserTimeZone();
  return callEndpoint(ENDPOINTS.swipe, { body: { id, like, ...(tz ? { tz } : {}) } });
}

export { BADGES_KEY, LIKES_KEY } from "./keys";

/** One tab and page of the likes overview, new likes first (GET /api/likes.php). */
export const likesQuery = (type: LikeType, page: number) =>
  queryOptions({
    queryKey: [...LIKES_KEY, type, page],
    queryFn: () => callEndpoint(ENDPOINTS.likes, { query: { type, page } }),
  });

/** GET /api/badges.php: the top navigation's counts. */
export function getBadges() {
  return callEndpoint(ENDPOINTS.badges);
}

/** The top navigation's counts (GET /api/badges.php). */
export const badgesQuery = queryOptions({ queryKey: BADGES_KEY, queryFn: getBadges });

/** The swipe game's candidates and limits; loaded afresh on every visit (gcTime 0). */
export const swipeQuery = queryOptions({ queryKey: ["swipe"], queryFn: getSwipeCandidates, gcTime: 0 });
