/**
 * POST /api/page-hidden.php (the contract's `ENDPOINTS.pageHidden`; its path here so that the member's
 * every page sends it without the endpoint table and zod, issue #29; page-hidden.test.ts holds the two
 * together) as a beacon (spec §7: empty JSON when the page becomes hidden): it is sent even when the
 * page is being closed. The server then sends pushes or e-mails instead of in-page toasts.
 */
export const PAGE_HIDDEN_PATH = "/api/page-hidden.php";

export function sendPageHidden(): void {
  if (typeof navigator.sendBeacon !== "function") return;
  navigator.sendBeacon(PAGE_HIDDEN_PATH, new Blob(["{}"], { type: "application/json" }));
}
