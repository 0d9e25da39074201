import { createContext, useContext } from "react";

/**
 * The top navigation's counts (spec §2): new likes and unread messages, and the account menu's new
 * profile visitors (issue #29; not part of the unread total). The likes feature keeps them
 * current (GET /api/badges.php, member events) and provides them here, so that the layout's navigation
 * and the page title read them without importing a feature.
 */
export interface BadgeCounts {
  newLikes: number;
  unreadMessages: number;
  newVisitors: number;
}

export const BadgeCountsContext = createContext<BadgeCounts>({ newLikes: 0, unreadMessages: 0, newVisitors: 0 });

export function useBadgeCounts(): BadgeCounts {
  return useContext(BadgeCountsContext);
}

/** Spec §2: the page title's "(n) " prefix and the unread badge count unread messages plus new likes. */
export function unreadTotal(counts: BadgeCounts): number {
  return counts.newLikes + counts.unreadMessages;
}
