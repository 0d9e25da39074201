type SessionLostListener = () => void;
const sessionLostListeners = new Set<SessionLostListener>();

/**
 * Spec §4: a 403 authentication_required answer to any call but the user call means the session is
 * gone and the member is logged out. The member state subscribes here; returns the unsubscribe.
 */
export function onSessionLost(listener: SessionLostListener): () => void {
  sessionLostListeners.add(listener);
  return () => {
    sessionLostListeners.delete(listener);
  };
}

export function reportSessionLost(): void {
  for (const listener of [...sessionLostListeners]) listener();
}

/** Where a banned member lands (issue #27): the ban page, which shows their ban's reason and end. */
export const BAN_PAGE = "/pages/ban";

/**
 * The member's account was banned (a 403 account_banned from any call, or the socket closed with
 * WS_CLOSE.banned): the page goes to /pages/ban, once (the ban page itself asks for the user too).
 */
export function reportBanned(navigate: (path: string) => void = (path) => window.location.assign(path)): void {
  if (typeof window === "undefined" || window.location.pathname === BAN_PAGE) return;
  navigate(BAN_PAGE);
}
