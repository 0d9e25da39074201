/**
 * Notifications' numbers (issue #28), without schemas: the web app's polling loop runs on every page
 * and must not load zod with them (decision 025). Re-exported by ./notifications.ts.
 */

/** Spec §9: the push service worker's version, and the design version (shown in /api/settings.php). */
export const PUSH_WORKER_VERSION = 2;
export const DESIGN_VERSION = 2;

/** Spec §7: the client fetches the user, the chats and the likes every 60 s (300 s with push), first after 5 s. */
export const POLL_FIRST_MS = 5_000;
export const POLL_MS = 60_000;
export const POLL_WITH_PUSH_MS = 300_000;

/**
 * The header the client's poll of GET /api/user.php carries with `document.visibilityState`: `visible`
 * tells the server the member is looking (modules/notifications: no push or e-mail, the page toasts).
 */
export const PAGE_VISIBILITY_HEADER = "x-page-visibility";
