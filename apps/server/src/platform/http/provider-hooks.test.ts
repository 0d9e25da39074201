import { describe, expect, it } from "vitest";
import { showsDevMailbox } from "../../app.ts";
import { startTestApp, type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { OutboxMailer } from "../mailer.ts";
import type { ProviderHook } from "./provider-hooks.ts";

let database: TestDatabase;
let app: TestApp;
/** What the test provider's callbacks did: each payment id once, however often it calls. */
const credited = new Set<string>();
const calls: Array<Record<string, string>> = [];

const testProvider: ProviderHook = {
  name: "test-psp",
  // Like a provider that signs its calls: a shared secret in a header.
  authenticate: (request) => request.headers["x-test-signature"] === "s3cret",
  handle: async ({ fields }) => {
    calls.push(fields);
    if (fields.id) credited.add(fields.id);
  },
};

useTestApp({ listen: false, providerHooks: [testProvider] }, (env) => {
  ({ app, database } = env);
});

describe("provider callbacks under /hooks/", () => {
  it("take a form-encoded POST from a foreign origin without a session, and repeat safely", async () => {
    const call = () =>
      app.server.inject({
        method: "POST",
        url: "/hooks/test-psp",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: "https://psp.example",
          "sec-fetch-site": "cross-site",
          "x-test-signature": "s3cret",
        },
        payload: "id=tr_WDqYK6vllg&status=paid",
      });
    const first = await call();
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe("ok");
    expect((await call()).statusCode).toBe(200);
    expect(calls).toEqual([
      { id: "tr_WDqYK6vllg", status: "paid" },
      { id: "tr_WDqYK6vllg", status: "paid" },
    ]);
    expect([...credited]).toEqual(["tr_WDqYK6vllg"]);
  });

  it("take JSON bodies as well, and refuse calls that do not authenticate", async () => {
    const json = await app.server.inject({
      method: "POST",
      url: "/hooks/test-psp",
      headers: { "content-type": "application/json", "x-test-signature": "s3cret" },
      payload: JSON.stringify({ id: "tr_2", amount: { value: "9.95" } }),
    });
    expect(json.statusCode).toBe(200);
    expect(calls.at(-1)).toEqual({ id: "tr_2", amount: '{"value":"9.95"}' });
    const forged = await app.server.inject({
      method: "POST",
      url: "/hooks/test-psp",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "id=tr_3",
    });
    expect(forged.statusCode).toBe(403);
    expect(credited.has("tr_3")).toBe(false);
  });

  it("keep the browser rule everywhere else: the same cross-site form post to the API is refused", async () => {
    const response = await app.server.inject({
      method: "POST",
      url: "/api/logout.php",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://psp.example" },
      payload: "id=1",
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe("bad_origin");
  });
});

describe("the outbox mailbox", () => {
  it("is there whenever no SMTP server is set and the site listens on loopback only", async () => {
    const site = { SMTP_URL: undefined, PUBLIC_URL: undefined, PAYMENTS_PROVIDER: undefined };
    expect(showsDevMailbox({ ...site, HOST: "127.0.0.1" })).toBe(true);
    expect(showsDevMailbox({ ...site, HOST: "::1" })).toBe(true);
    expect(showsDevMailbox({ ...site, HOST: "127.0.0.1", PUBLIC_URL: "http://localhost:3000" })).toBe(true);
    expect(showsDevMailbox({ ...site, HOST: "0.0.0.0", PUBLIC_URL: "https://www.example.com" })).toBe(false);
    expect(showsDevMailbox({ ...site, HOST: "10.1.2.3", PUBLIC_URL: "https://www.example.com" })).toBe(false);
    // Decision 030: loopback behind a proxy that serves a public address is a public site.
    expect(showsDevMailbox({ ...site, HOST: "127.0.0.1", PUBLIC_URL: "https://www.example.com" })).toBe(false);
    // ... unless it says in so many words that it is a test site.
    expect(
      showsDevMailbox({ ...site, HOST: "0.0.0.0", PUBLIC_URL: "https://test.example.com", PAYMENTS_PROVIDER: "sandbox" }),
    ).toBe(true);
    expect(showsDevMailbox({ ...site, SMTP_URL: "smtp://mail.example:25", HOST: "127.0.0.1" })).toBe(false);
    // The test app listens on 127.0.0.1 without SMTP, in production mode as `npm start` runs.
    expect(app.services.mailer).toBeInstanceOf(OutboxMailer);
    const page = await app.server.inject({ url: "/dev/mailbox" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("<h1>");
    expect((await app.server.inject({ url: "/dev/mailbox/2147483648" })).statusCode).toBe(404);
  });

  it("is not there when the site is reachable from outside", async () => {
    // NODE_ENV=development showed it on any address once (issue #25): no more.
    const exposed = await startTestApp(database, {
      listen: false,
      env: { HOST: "0.0.0.0", PUBLIC_URL: "https://www.example.com", NODE_ENV: "development" },
    });
    try {
      expect((await exposed.server.inject({ url: "/dev/mailbox" })).statusCode).toBe(404);
    } finally {
      await exposed.stop();
    }
  });
});
