import { apiErrorSchema } from "@app/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, startTestApp, type TestApp, type TestDatabase } from "../../test/harness.ts";
import { AppError } from "../errors.ts";
import { t } from "../i18n.ts";

let database: TestDatabase;
let app: TestApp;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await startTestApp(database, { env: { BODY_LIMIT_BYTES: "2048" }, listen: false });
  app.server.post("/api/echo-test.php", async (request) => ({ size: JSON.stringify(request.body).length }));
  app.server.get("/api/boom-test.php", async () => {
    throw new Error("secret internal detail");
  });
  app.server.get("/api/limited-test.php", async () => {
    throw new AppError("rate_limited");
  });
});

afterAll(async () => {
  await app?.stop();
  await database?.destroy();
});

describe("HTTP plumbing", () => {
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
