import { existsSync } from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createMember, sqlRows } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { webRoot } from "./ssr.ts";

// Needs the production build (npm test builds first; `npm run build` when running this file alone).
const built = existsSync(`${webRoot}build/server/index.js`);
let database: TestDatabase;
let app: TestApp;

describe.runIf(built)("server-rendered pages", () => {
  useTestApp({ web: "production", env: { BODY_LIMIT_BYTES: "4096" }, listen: false, seed: { profiles: 0 } }, (env) => {
    ({ app, database } = env);
  });

  it("renders the home page with a nonce-based CSP that only the page's own scripts satisfy", async () => {
    const response = await app.server.inject({ url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    const csp = String(response.headers["content-security-policy"]);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("connect-src 'self';");
    const scripts = [...response.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("names the profile on its signup page (spec §4) and answers 404 for unknown, hidden or impossible ids", async () => {
    type ProfileRow = { id: number; name: string; user_id: number };
    const found = await sqlRows<ProfileRow>(
      database.db,
      sql`select p.id, p.name, p.user_id from profiles p join users u on u.id = p.user_id where u.email = 'free@example.com'`,
    );
    const profile = found[0] as ProfileRow;
    const page = await app.server.inject({ url: `/members/${profile.id}/signup` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Sign up to chat with ${profile.name}`);
    for (const url of ["/members/99999999/signup", "/members/2147483648/signup", "/members/0012/signup", "/members/2147483648"]) {
      expect((await app.server.inject({ url })).statusCode, url).toBe(404);
    }
    await database.db.execute(sql`update users set invisible = true where id = ${profile.user_id}`);
    try {
      expect((await app.server.inject({ url: `/members/${profile.id}/signup` })).statusCode).toBe(404);
    } finally {
      await database.db.execute(sql`update users set invisible = false where id = ${profile.user_id}`);
    }
  });

  it("sends a long page in document order: the members' results before the footer, with no boundary moved out of place", async () => {
    // React 19.2 moves a finished Suspense boundary to the end of the document once about 12.8 KB were written,
    // and a script moves it back: without JavaScript the results were missing, and with it the footer painted
    // first and then jumped down (Lighthouse: CLS 0.3 on /members, issue #29).
    const names = Array.from({ length: 14 }, (_, i) => `Outline${i}`);
    for (const name of names) await createMember(app, { name, gender: "female", activate: true });
    const seeker = await createMember(app, { gender: "male", activate: true });
    const page = await seeker.client.get("/members?sort=newest");
    expect(page.statusCode).toBe(200);
    expect(page.body.length).toBeGreaterThan(20_000);
    expect(page.body.includes("<!--$?-->"), "a boundary sent after the footer").toBe(false);
    const footer = page.body.indexOf("<footer");
    for (const name of names) {
      const at = page.body.indexOf(name);
      expect(at, name).toBeGreaterThan(0);
      expect(at, name).toBeLessThan(footer);
    }
  });

  it("keeps a path that starts with // on this host (404, not another site's URL)", async () => {
    const response = await app.server.inject({ url: "//evil.example/x" });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain("This page could not be found");
  });

  it("answers requests without a body or with odd methods without a server error", async () => {
    for (const method of ["POST", "DELETE", "OPTIONS"] as const) {
      const response = await app.server.inject({ method, url: "/" });
      expect(response.statusCode, method).toBeLessThan(500);
    }
  });

  it("applies the body limit to page routes too", async () => {
    const response = await app.server.inject({
      method: "POST",
      url: "/",
      headers: { "content-type": "text/plain" },
      payload: "x".repeat(8192),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe("payload_too_large");
  });

  it("answers a missing asset with a plain 404 and serves real ones immutable", async () => {
    const missing = await app.server.inject({ url: "/assets/nope-123.js" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("not_found");
    const page = await app.server.inject({ url: "/" });
    const asset = /href="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1] ?? "";
    const served = await app.server.inject({ url: asset });
    expect(served.statusCode).toBe(200);
    expect(served.headers["cache-control"]).toContain("immutable");
  });

  it("refuses a malformed Host header with 400", async () => {
    const response = await app.server.inject({ url: "/", headers: { host: "bad host[" } });
    expect(response.statusCode).toBe(400);
  });

  it("refuses a Host header that carries a path, query or credentials (400), so it never chooses the page", async () => {
    // Issue #25: the page's URL was `protocol://Host + path`, so `Host: x/pricing?` rendered /pricing for
    // a request to /pages/terms (and its query reached the loaders past the input rule), and
    // `Host: a@b` answered 500 (a Fetch Request refuses credentials).
    for (const host of ["localhost/pricing?", "localhost/members?city=%00&", "localhost#", "a@b", "localhost\\x"]) {
      const response = await app.server.inject({ url: "/pages/terms", headers: { host } });
      expect(response.statusCode, host).toBe(400);
      expect(response.json().error, host).toBe("bad_request");
    }
    // Ordinary hosts still render: names, addresses, IPv6 literals, ports, upper case.
    for (const host of ["localhost", "WWW.Amoria.example:8080", "127.0.0.1:3000", "[::1]:3000", "my_app:3000"]) {
      expect((await app.server.inject({ url: "/pages/terms", headers: { host } })).statusCode, host).toBe(200);
    }
  });
});
