import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { addBrandSite, createMember, signupBody, uniqueEmail } from "../../test/factories.ts";
import { startTestApp, type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { linkIn, startSmtp } from "../../test/smtp.ts";

/**
 * Issue #25, hole 1: links in e-mails come from the site's configured origin, never from the Host a
 * request names. The site here is a loopback one without PUBLIC_URL (as `npm start` runs), whose
 * origin is http://localhost:<port>; a brand site's own domain gets links on that domain.
 */
let database: TestDatabase;
let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
/** The origin `npm start` prints for this app: http://localhost:<port it listens on>. */
let origin: string;

// The mail server outlives the app (hooks: before in order, after in reverse).
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
});

useTestApp({ env: () => ({ SMTP_URL: smtp.url }), seed: { profiles: 0 } }, async (env) => {
  ({ app, database } = env);
  await addBrandSite(app);
  origin = `http://localhost:${new URL(app.url).port}`;
});

const evil = { host: "evil.example" };

describe("links in e-mails (issue #25)", () => {
  it("mails a password reset link on the configured origin whatever Host the request names", async () => {
    const { email } = await createMember(app);
    await smtp.next(email); // activation
    const response = await new TestClient(app.server).post("/api/reset-password.php", { email }, evil);
    expect(response.statusCode, response.body).toBe(200);
    const link = linkIn(await smtp.next(email, /password/i), "/reset-password/do?token=");
    expect(link.startsWith(`${origin}/reset-password/do?token=`), link).toBe(true);
  });

  it("mails activation and mail-change links on the configured origin", async () => {
    const email = uniqueEmail();
    const client = new TestClient(app.server);
    expect((await client.post("/api/signup.php", signupBody(email), evil)).statusCode).toBe(200);
    const activation = linkIn(await smtp.next(email), "/api/activation.php?token=");
    expect(activation.startsWith(`${origin}/api/activation.php?token=`), activation).toBe(true);

    expect((await client.post("/api/activation.php", {}, evil)).statusCode).toBe(200);
    const resent = linkIn(await smtp.next(email), "/api/activation.php?token=");
    expect(resent.startsWith(`${origin}/api/activation.php?token=`), resent).toBe(true);

    const target = uniqueEmail();
    const change = await client.post("/api/mail-change.php", { new_email: target, password: "correct horse battery" }, evil);
    expect(change.statusCode, change.body).toBe(200);
    const link = linkIn(await smtp.next(target), "/mail-change/do?token=");
    expect(link.startsWith(`${origin}/mail-change/do?token=`), link).toBe(true);
  });

  it("gives a host that a brand site claims links on that site's own domain", async () => {
    const { email } = await createMember(app);
    await smtp.next(email);
    const response = await new TestClient(app.server).post("/api/reset-password.php", { email }, { host: "Liefde.example:8080" });
    expect(response.statusCode, response.body).toBe(200);
    const link = linkIn(await smtp.next(email, /password/i), "/reset-password/do?token=");
    // The brand's domain, with the scheme and port the process is reached on.
    expect(link.startsWith(`http://liefde.example:${new URL(app.url).port}/reset-password/do?token=`), link).toBe(true);
  });
});

describe("SiteService.originFor", () => {
  it("answers PUBLIC_URL's origin for unclaimed hosts and the brand's domain with PUBLIC_URL's scheme", async () => {
    const public_ = await startTestApp(database, { env: { PUBLIC_URL: "https://www.amoria.example/" }, listen: false });
    try {
      expect(await public_.services.site.originFor("evil.example")).toBe("https://www.amoria.example");
      expect(await public_.services.site.originFor("localhost")).toBe("https://www.amoria.example");
      expect(await public_.services.site.originFor("liefde.example")).toBe("https://liefde.example");
    } finally {
      await public_.stop();
    }
  });
});
