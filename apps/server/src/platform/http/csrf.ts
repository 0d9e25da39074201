import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
const API_TYPES = ["application/json", "multipart/form-data"];
/** Provider callbacks (payments, mail events): foreign origins, form bodies, their own authentication. */
export const PROVIDER_HOOKS_PREFIX = "/hooks/";
/**
 * API calls that a signed token in the URL authenticates, not a cookie: RFC 8058's one-click unsubscribe,
 * which mail providers POST from their servers as a form (`List-Unsubscribe=One-Click`).
 */
export const TOKEN_AUTHENTICATED_PATHS: ReadonlySet<string> = new Set(["/api/unsubscribe.php"]);

/**
 * Cross-site request protection for the API, on top of SameSite=Lax cookies: a state-changing call
 * must come from this site (Origin, or Sec-Fetch-Site when a browser sends no Origin) and carry a JSON
 * or multipart body, which a cross-site HTML form cannot send without a CORS preflight we never allow.
 * Provider callbacks under /hooks/ are outside this rule: they come from the provider's servers and
 * prove themselves by their own means (see provider-hooks.ts).
 */
export function registerCsrfProtection(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  // Every unsafe request, whatever its path looks like before decoding (`/%61pi/...` is `/api/...`). A
  // plain callback hook: safe methods (most requests) pass without a promise.
  app.addHook("onRequest", (request, _reply, done) => {
    if (SAFE.has(request.method)) return done();
    try {
      checkUnsafeRequest(request, allowedOrigins);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}

/** An unsafe request must come from this site and carry an API body type (throws AppError otherwise). */
function checkUnsafeRequest(request: FastifyRequest, allowedOrigins: readonly string[]): void {
  if (request.routeOptions.url?.startsWith(PROVIDER_HOOKS_PREFIX)) return;
  if (TOKEN_AUTHENTICATED_PATHS.has(request.routeOptions.url ?? "")) return;
  const origin = request.headers.origin;
  if (origin) {
    if (!sameOrigin(origin, request) && !allowedOrigins.includes(origin)) throw new AppError("bad_origin");
  } else if (request.headers["sec-fetch-site"] === "cross-site") {
    throw new AppError("bad_origin");
  }
  // Body types are the API's rule; page routes hand their body to React Router as it is.
  const url = request.routeOptions.url ?? "";
  if (!url.startsWith("/api/") && !url.startsWith("/staff/api/")) return;
  const type =
    String(request.headers["content-type"] ?? "")
      .split(";")[0]
      ?.trim()
      .toLowerCase() ?? "";
  const hasBody = Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;
  if (hasBody && !API_TYPES.includes(type)) throw new AppError("unsupported_media_type");
}

/**
 * Whether a GET that changes state (spec §7 logs out with `GET /api/logout.php`) comes from this site.
 * Refused: a browser's Sec-Fetch-Site of `cross-site` or `same-site`, an Origin of another origin, or,
 * without an Origin, a Referer from another origin (issue #25 hole 7: browsers without Sec-Fetch-*
 * headers still logged out from a foreign page). A request with none of these passes, as the spec's GET
 * asks: a typed address, a bookmark, or a navigation whose Referer was withheld (Referrer-Policy:
 * no-referrer). A foreign page can make a browser send no Referer, but every browser that can withhold
 * it sends Sec-Fetch-Site (all current ones): the remaining gap is old browsers on pages that hide their
 * Referer, and SameSite=Lax keeps the session cookie off their cross-site subresource requests anyway.
 */
export function getFromThisSite(request: FastifyRequest, allowedOrigins: readonly string[]): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site") return false;
  const ours = (origin: string) => sameOrigin(origin, request) || allowedOrigins.includes(origin);
  const origin = request.headers.origin;
  if (origin) return ours(origin);
  const referer = request.headers.referer;
  if (!referer) return true;
  try {
    return ours(new URL(referer).origin);
  } catch {
    return false;
  }
}

/**
 * Whether an Origin is this request's own origin: the same scheme and the same host (default ports
 * ignored, as URL normalises them), each as the request arrived or as a trusted proxy says
 * (X-Forwarded-Proto, X-Forwarded-Host: `request.host`, which also chooses the site that answers).
 * `http://site` is another origin than `https://site`. The host came from the Host header alone before,
 * so behind a proxy that reaches the node under its own address a brand site's pages were refused.
 */
export function sameOrigin(origin: string, request: FastifyRequest): boolean {
  try {
    const from = new URL(origin);
    // The request's own authority, compared, never handed out: a browser sends the Host it addressed, so a
    // foreign page cannot make its Origin match. Links and provider URLs use SiteService.originFor.
    const own = new URL(`${request.protocol}://${request.host}`);
    return from.protocol === own.protocol && from.host === own.host;
  } catch {
    return false;
  }
}
