// The `/ws` numbers, without zod: the browser loads these on every page, the frame schemas only for a member (decision 025).

/** A client sends `typing: true` at most this often while typing; the server forwards no more often. */
export const TYPING_THROTTLE_MS = 2_000;
/** A client hides the typing indicator this long after the last `typing: true` (a lost "stop"). */
export const TYPING_TTL_MS = 6_000;

/** How many missed events one resume answers at most; a client further behind reloads instead. */
export const RESUME_LIMIT = 500;

/**
 * Close codes the server uses: 1012 (service restart) on shutdown so that clients reconnect elsewhere
 * at once, 1001 when a node cannot serve the socket now, 1008 for a socket over its frame budget.
 */
export const WS_CLOSE = {
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
  serviceRestart: 1012,
  sessionEnded: 4001,
  /** The member was banned (issue #27): the page goes to /pages/ban instead of reconnecting. */
  banned: 4003,
} as const;
/** Sockets one client address (IPv6: its /64) may hold open on one server node. */
export const WS_MAX_PER_ADDRESS = 20;
