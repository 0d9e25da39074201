import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

/**
 * The headers helmet sets for `options`, worked out once. helmet's headers do not depend on the request,
 * but @fastify/helmet built a new helmet middleware (parsing the CSP directives again) and set each
 * header on the raw response for every request: about a tenth of the CPU of a small API answer
 * (decision 018).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * The headers that still mean something on a JSON answer, which a browser never renders as a document
 * (OWASP REST Security Cheat Sheet, "Security headers"): the deny-all policy (also forbids framing),
 * nosniff, the cross-origin resource policy, X-Frame-Options for browsers without frame-ancestors, and
 * HSTS where the site is served over https. The others (opener policy, origin-agent cluster, referrer
 * policy, DNS prefetch, IE's download and XSS-auditor switches, Flash's cross-domain policy) govern
 * documents; sending them with every API answer cost Node a validation and a copy of each per request,
 * about a tenth of GET /api/settings.php (bench:http, decision 018).
 */
export const API_HEADER_NAMES = [
  "content-security-policy",
  "cross-origin-resource-policy",
  "x-content-type-options",
  "x-frame-options",
  "strict-transport-security",
] as const;

/**
 * Sends helmet's headers with every answer: the whole set with pages and files (HTML pages then replace
 * the CSP with their own, ssr.ts), the API's subset with answers under /api/. A path that reaches the
 * API only once decoded (`/%61pi/…`) gets the whole set, which is a superset.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = securityHeaders(options);
  const apiHeaders = Object.fromEntries(
    Object.entries(headers).filter(([name]) => (API_HEADER_NAMES as readonly string[]).includes(name)),
  );
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(request.url.startsWith("/api/") ? apiHeaders : headers);
    done();
  });
}
