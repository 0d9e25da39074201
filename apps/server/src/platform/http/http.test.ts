import { apiErrorSchema, ENDPOINTS } from "@app/contract";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { AppError } from "../errors.ts";
import { t } from "../i18n.ts";
import { answerOf, handle, preserialize, registerEndpointRules, routeConstraintsOf } from "./endpoint.ts";

let database: TestDatabase;
let app: TestApp;

useTestApp({ env: { BODY_LIMIT_BYTES: "2048" }, listen: false }, (env) => {
  ({ app, database } = env);
  const sized = z.object({ size: z.number() });
  handle(
    app.server,
    { method: "POST", path: "/api/echo-test.php", auth: "none", body: z.unknown(), response: sized },
    async ({ body }) => ({
      size: JSON.stringify(body).length,
    }),
  );
  handle(app.server, { method: "GET", path: "/api/boom-test.php", auth: "none", response: sized }, async () => {
    throw new Error("secret internal detail");
  });
  handle(app.server, { method: "GET", path: "/api/limited-test.php", auth: "none", response: sized }, async () => {
    throw new AppError("rate_limited");
  });
  // An answer with a field the contract does not name (a password hash, say) loses it on the way out.
  const leak = { method: "GET", path: "/api/leak-test.php", auth: "none", response: z.object({ name: z.string() }) } as const;
  handle(app.server, leak, async () => ({ name: "Anna", password_hash: "$argon2id$secret" }) as { name: string });
  // The same through an answer serialised ahead of time (kept and sent again, as the settings are).
  const kept = {
    method: "GET",
    path: "/api/kept-leak-test.php",
    auth: "none",
    response: z.object({ name: z.string() }),
  } as const;
  handle(app.server, kept, async ({ reply }) =>
    preserialize(kept, reply, { name: "Bea", password_hash: "$argon2id$kept" } as { name: string }),
  );
  // A page asking endpoints in process, as the server-rendered pages do (ssr-services.ts).
  app.server.get("/page-data-test", async (request) => ({
    leak: await answerOf(request, leak),
    kept: await answerOf(request, kept),
    user: await answerOf(request, ENDPOINTS.user),
  }));
});

describe("endpoint table", () => {
  it("refuses to register an API route that is not a contract endpoint with a response schema", async () => {
    const scratch = Fastify();
    registerEndpointRules(scratch);
    expect(() => scratch.get("/api/raw-test.php", async () => ({ anything: true }))).toThrow(/not an endpoint of the contract/);
    expect(() =>
      scratch.route({
        method: "GET",
        url: "/api/no-schema-test.php",
        config: { endpoint: ENDPOINTS.user },
        handler: async () => ({}),
      }),
    ).toThrow(/response schema/);
    await scratch.close();
  });

  it("registers every endpoint of the contract, each with its response schema", () => {
    for (const endpoint of Object.values(ENDPOINTS)) {
      // An endpoint with a `when` (POST /api/user.php?push=1) is its own route, found with its constraint.
      const route = { method: endpoint.method, url: endpoint.path, ...routeConstraintsOf(endpoint) };
      expect(app.server.hasRoute(route), `${endpoint.method} ${endpoint.path} ${JSON.stringify(route)}`).toBe(true);
    }
  });

  it("drops fields the contract does not name from an answer", async () => {
    const response = await app.server.inject({ url: "/api/leak-test.php" });
    expect(response.json()).toEqual({ name: "Anna" });
    expect(response.body).not.toContain("argon2");
    const kept = await app.server.inject({ url: "/api/kept-leak-test.php" });
    expect(kept.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(kept.json()).toEqual({ name: "Bea" });
    expect(kept.body).not.toContain("argon2");
  });

  it("answers an in-process call (answerOf) through the route's handler and response schema, without the API's headers", async () => {
    const response = await app.server.inject({ url: "/page-data-test", headers: { cookie: "auth.session=stale" } });
    expect(response.json()).toEqual({ leak: { name: "Anna" }, kept: { name: "Bea" }, user: { user: null } });
    expect(response.body).not.toContain("argon2");
    // GET /api/user.php answers no-store and clears a stale session cookie: the page's own reply does neither.
    expect(response.headers["cache-control"]).not.toBe("no-store");
    expect(response.headers["set-cookie"]).toBeUndefined();
  });

  it("refuses a NUL character in any string of a query or body with 400 (decision 032), and ids beyond the integer columns with 422", async () => {
    const nul = await app.server.inject({
      method: "POST",
      url: "/api/user.php",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ email: "\u0000", password: "x" }),
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toMatchObject({ error: "invalid_input", fields: { email: expect.any(String) } });
    const inQuery = await app.server.inject({ url: "/api/members.php?countryregion=%00" });
    expect(inQuery.statusCode).toBe(400);
    for (const url of ["/api/member.php?id=2147483648", "/api/member.php?id=99999999999999999999"]) {
      const big = await app.server.inject({ url });
      expect(big.statusCode, url).toBe(422);
      expect(big.json().error).toBe("validation_failed");
    }
  });
});

describe("HTTP plumbing", () => {
  it("answers API calls under a deny-all content security policy", async () => {
    const response = await app.server.inject({ url: "/api/regions.php" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-security-policy"]).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["cross-origin-resource-policy"]).toBe("same-origin");
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    // Headers that govern documents stay off JSON answers (OWASP REST set, security-headers.ts).
    for (const name of ["cross-origin-opener-policy", "origin-agent-cluster", "x-dns-prefetch-control", "x-xss-protection"]) {
      expect(response.headers[name], name).toBeUndefined();
    }
  });

  it("sends the document headers with everything outside the API", async () => {
    const response = await app.server.inject({ url: "/healthz" });
    expect(response.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    // A path that becomes an API path only once decoded gets the whole set, never less.
    const encoded = await app.server.inject({ url: "/%61pi/regions.php" });
    expect(encoded.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(encoded.headers["content-security-policy"]).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it("reports health with the database it checked", async () => {
    const response = await app.server.inject({ url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", database: database.kind, bus: expect.any(String) });
  });

  it("answers unknown API paths with a translated JSON 404", async () => {
    const en = await app.server.inject({ url: "/api/nothing.php" });
    expect(en.statusCode).toBe(404);
    expect(apiErrorSchema.parse(en.json())).toEqual({ error: "not_found", message: "Not found." });
    const pl = await app.server.inject({ url: "/api/nothing.php", headers: { "accept-language": "pl-PL" } });
    expect(pl.json()).toEqual({ error: "not_found", message: t("pl", "error.not_found") });
    expect(t("pl", "error.not_found")).not.toBe(t("en", "error.not_found"));
  });

  it("hides internal errors behind a 500 with the generic message", async () => {
    const response = await app.server.inject({ url: "/api/boom-test.php" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: "internal", message: "An error occured, please try again later." });
    expect(response.body).not.toContain("secret");
  });

  it("maps typed errors to their status", async () => {
    const response = await app.server.inject({ url: "/api/limited-test.php", headers: { cookie: "i18n_redirected=fr" } });
    expect(response.statusCode).toBe(429);
    expect(response.json().error).toBe("rate_limited");
  });

  it("refuses bodies over the limit with 413 and a clear error", async () => {
    const response = await app.server.inject({
      method: "POST",
      url: "/api/echo-test.php",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ text: "x".repeat(4096) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: "payload_too_large", message: "The upload is too large." });
  });

  it("answers malformed JSON with 400 bad_request", async () => {
    const response = await app.server.inject({
      method: "POST",
      url: "/api/echo-test.php",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe("bad_request");
  });

  it("sends security headers", async () => {
    const response = await app.server.inject({ url: "/api/regions.php" });
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(response.headers["x-frame-options"]).toBeDefined();
  });
});
