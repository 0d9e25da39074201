import { DEVICE_COOKIE, SESSION_COOKIE, userResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { t } from "../../platform/i18n.ts";
import { hashToken } from "../../platform/secrets.ts";
import { TestClient } from "../../test/client.ts";
import { createMember, type MemberOptions, signupBody, sqlCount, sqlRows, uniqueEmail } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { linkIn, startSmtp } from "../../test/smtp.ts";

let database: TestDatabase;
let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let smtpUrl = "";

// The mail server outlives the app (hooks: before in order, after in reverse).
beforeAll(async () => {
  smtp = await startSmtp();
  smtpUrl = smtp.url;
});
afterAll(async () => {
  await smtp?.close();
});

// The demo accounts are this file's targets; http://site.test makes it a public site (decision 030).
useTestApp(
  {
    env: () => ({ SMTP_URL: smtp.url, PUBLIC_URL: "http://site.test", SEED_DEMO_ACCOUNTS: "true" }),
    listen: false,
    seed: { profiles: 0 },
  },
  (env) => {
    ({ app, database } = env);
  },
);

const countUsers = () => sqlCount(database.db, sql`select count(*)::int as n from users`);
/** Turns an absolute e-mail link into the path inject() needs. */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

const signedUp = (options: Pick<MemberOptions, "locale" | "address"> = {}) => createMember(app, options);

describe("signup", () => {
  it("creates the member, logs them in with a safe cookie, grants the signup credits and mails an activation link", async () => {
    const client = new TestClient(app.server);
    const email = uniqueEmail();
    const response = await client.post("/api/signup.php", signupBody(email.toUpperCase()));
    expect(response.statusCode).toBe(200);
    const { user } = userResponseSchema.parse(response.json());
    expect(user).toMatchObject({
      email,
      status: "not_confirmed",
      credits: 20,
      paid_user: false,
      notifications_disabled: [],
      profile: { name: "Robin", status: "disabled", gender: "female", seeking: "male", main_image: null },
    });
    expect(response.body).not.toMatch(/argon2|password_hash|passwordHash|token/i);

    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ path: "/", httpOnly: true, sameSite: "Lax", maxAge: 30 * 24 * 3600 });
    expect(cookie?.value.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    const stored = await sqlRows<{ token_hash: string }>(
      database.db,
      sql`select token_hash from sessions s join users u on u.id = s.user_id where u.email = ${email}`,
    );
    expect(stored[0]?.token_hash).not.toBe(cookie?.value);

    const ledger = await sqlRows<{ delta: number; reason: string; balance_after: number }>(
      database.db,
      sql`select delta, reason, balance_after from credit_ledger l join users u on u.id = l.user_id where u.email = ${email}`,
    );
    expect(ledger).toEqual([{ delta: 20, reason: "signup_bonus", balance_after: 20 }]);

    const mail = await smtp.next(email, /Confirm/);
    expect(mail.subject).toBe(t("en", "email.activation.subject", { site: "Amoria" }));
    expect(mail.html).toContain("Hello Robin,");
    expect(linkIn(mail, "/api/activation.php?token=")).toMatch(/^http:\/\/site\.test\/api\/activation\.php\?token=[\w-]{43}$/);

    const me = userResponseSchema.parse((await client.get("/api/user.php")).json());
    expect(me.user?.id).toBe(user?.id);
  });

  it("writes the activation mail in the member's language", async () => {
    const { email } = await signedUp({ locale: "de-DE,de;q=0.9" });
    const mail = await smtp.next(email);
    expect(mail.subject).toBe(t("de", "email.activation.subject", { site: "Amoria" }));
    expect(mail.subject).not.toBe(t("en", "email.activation.subject", { site: "Amoria" }));
  });

  it.each([
    ["an invalid e-mail", { email: "not-an-email" }, "invalid_email", "Invalid email"],
    [
      "a minor",
      { date_of_birth: `${new Date().getUTCFullYear() - 17}-01-01` },
      "invalid_date_of_birth",
      "Invalid date of birth.",
    ],
    ["an impossible date", { date_of_birth: "1990-02-30" }, "invalid_date_of_birth", "Invalid date of birth."],
    ["a name starting with @", { name: "@robin" }, "name_starts_with_at", "Your name may not start with @."],
    ["a common password", { password: "password1" }, "password_too_common", t("en", "error.password_too_common")],
    ["a short password", { password: "abc12" }, "password_too_short", t("en", "error.password_too_short")],
  ])("refuses %s with its message and creates nothing", async (_label, extra, code, message) => {
    const before = await countUsers();
    const response = await new TestClient(app.server).post("/api/signup.php", signupBody(uniqueEmail(), extra));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: code, message });
    expect(Object.values(response.json().fields ?? {})).toContain(message);
    expect(response.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    expect(await countUsers()).toBe(before);
  });

  it("refuses a name equal to the e-mail address", async () => {
    const email = uniqueEmail();
    const response = await new TestClient(app.server).post("/api/signup.php", signupBody(email, { name: email }));
    expect(response.json()).toMatchObject({ error: "name_is_email", fields: { name: t("en", "error.name_is_email") } });
  });

  it("reports every bad field at once", async () => {
    const response = await new TestClient(app.server).post(
      "/api/signup.php",
      signupBody("x@", { password: "1", date_of_birth: "2020-01-01" }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toBe("validation_failed");
    expect(Object.keys(response.json().fields).sort()).toEqual(["date_of_birth", "email", "password"]);
  });

  it("refuses an address that already has an account, in the visitor's language", async () => {
    const { email } = await signedUp();
    const before = await countUsers();
    const response = await new TestClient(app.server, { locale: "fr" }).post("/api/signup.php", signupBody(email));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: "email_taken", message: t("fr", "error.email_taken") });
    expect(await countUsers()).toBe(before);
  });

  it("refuses malformed bodies without creating anything", async () => {
    const before = await countUsers();
    const client = new TestClient(app.server);
    expect((await client.post("/api/signup.php", { email: 5 })).statusCode).toBe(422);
    expect((await client.post("/api/signup.php", signupBody(uniqueEmail(), { gender: "robot" }))).json().error).toBe(
      "validation_failed",
    );
    expect(await countUsers()).toBe(before);
  });
});

describe("activation", () => {
  it("activates through the e-mailed link; a second click (or a mail scanner's first) still lands on done", async () => {
    const { client, email } = await signedUp();
    const link = pathOf(linkIn(await smtp.next(email), "/api/activation.php?token="));
    const first = await client.get(link);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe("/activate/done");
    const { user } = userResponseSchema.parse((await client.get("/api/user.php")).json());
    expect(user).toMatchObject({ status: "active", profile: { status: "active" } });
    expect((await client.get(link)).headers.location).toBe("/activate/done");
    expect((await client.get("/api/activation.php?token=garbage")).headers.location).toBe("/activate/error");
    expect((await client.get("/api/activation.php?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).headers.location).toBe(
      "/activate/error",
    );
  });

  it("sends a new link on request, replacing the old one", async () => {
    const { client, email } = await signedUp();
    const old = pathOf(linkIn(await smtp.next(email), "/api/activation.php?token="));
    expect((await client.post("/api/activation.php", {})).statusCode).toBe(200);
    const fresh = pathOf(linkIn(await smtp.next(email), "/api/activation.php?token="));
    expect(fresh).not.toBe(old);
    // The replaced link does not activate (the account is still unconfirmed when it is tried).
    expect((await client.get(old)).headers.location).toBe("/activate/error");
    expect((await client.get(fresh)).headers.location).toBe("/activate/done");
  });
});

describe("signup from a profile (spec §4)", () => {
  it("stores the message for a profile a visitor may see, and refuses hidden, unknown and out-of-range ones", async () => {
    const demo = await sqlRows<{ id: number; user_id: number }>(
      database.db,
      sql`select p.id, p.user_id from profiles p join users u on u.id = p.user_id where u.email = 'free@example.com'`,
    );
    const target = demo[0] as { id: number; user_id: number };
    const email = uniqueEmail();
    const ok = await new TestClient(app.server).post(
      "/api/signup.php",
      signupBody(email, { via_profile_id: target.id, signup_message: "Hi there!" }),
    );
    expect(ok.statusCode).toBe(200);
    const stored = await sqlRows<{ text: string }>(
      database.db,
      sql`select text from signup_messages where to_profile_id = ${target.id}`,
    );
    expect(stored.map((r) => r.text)).toContain("Hi there!");

    const before = await countUsers();
    await database.db.execute(sql`update users set invisible = true where id = ${target.user_id}`);
    try {
      for (const id of [target.id, 99_999_999]) {
        const refused = await new TestClient(app.server).post(
          "/api/signup.php",
          signupBody(uniqueEmail(), { via_profile_id: id, signup_message: "Hello" }),
        );
        expect(refused.statusCode).toBe(422);
        expect(refused.json()).toMatchObject({ error: "profile_unavailable", fields: { via_profile_id: expect.any(String) } });
      }
      const tooBig = await new TestClient(app.server).post(
        "/api/signup.php",
        signupBody(uniqueEmail(), { via_profile_id: 2_147_483_648, signup_message: "Hello" }),
      );
      expect(tooBig.statusCode).toBe(422);
      expect(tooBig.json().fields).toHaveProperty("via_profile_id");
      const nul = await new TestClient(app.server).post("/api/signup.php", signupBody(uniqueEmail(), { name: "Ro\u0000bin" }));
      expect(nul.statusCode).toBe(400); // the input rule of every entry point (decision 032)
      expect(await countUsers()).toBe(before);
    } finally {
      await database.db.execute(sql`update users set invisible = false where id = ${target.user_id}`);
    }
  });
});

describe("login and sessions", () => {
  it("logs in with a new token each time and logs out", async () => {
    const { email } = await signedUp();
    const a = new TestClient(app.server);
    const b = new TestClient(app.server);
    expect((await a.post("/api/user.php", { email, password: "correct horse battery" })).statusCode).toBe(200);
    expect((await b.post("/api/user.php", { email: email.toUpperCase(), password: "correct horse battery" })).statusCode).toBe(
      200,
    );
    expect(a.cookies.get(SESSION_COOKIE)).not.toBe(b.cookies.get(SESSION_COOKIE));
    expect((await a.get("/api/logout.php")).statusCode).toBe(200);
    expect(userResponseSchema.parse((await a.get("/api/user.php")).json()).user).toBeNull();
    expect(userResponseSchema.parse((await b.get("/api/user.php")).json()).user?.email).toBe(email);
  });

  it("does not accept an expired session", async () => {
    const { client, user } = await signedUp();
    expect(userResponseSchema.parse((await client.get("/api/user.php")).json()).user?.id).toBe(user?.id);
    await database.db.execute(sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${user?.id}`);
    expect((await client.get("/api/user.php")).json()).toEqual({ user: null });
  });

  it("answers other calls without a session with 403 authentication_required", async () => {
    const client = new TestClient(app.server);
    const response = await client.put("/api/invisible.php", { invisible: true });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: "authentication_required", message: t("en", "error.authentication_required") });
    expect((await client.get("/api/notifications.php")).statusCode).toBe(403);
    expect((await client.get("/api/user.php")).json()).toEqual({ user: null });
  });

  it("locks one address out after 5 wrong passwords for 15 minutes, but not the owner elsewhere", async () => {
    const { email } = await signedUp();
    const attacker = new TestClient(app.server, { address: "203.0.113.7" });
    for (let i = 1; i <= 4; i++) {
      const wrong = await attacker.post("/api/user.php", { email, password: `wrong-${i}` });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: "login_failed", message: "Login failed, please try again" });
    }
    const fifth = await attacker.post("/api/user.php", { email, password: "wrong-5" });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({
      error: "login_locked",
      message: "Too many incorrect attempts, account blocked for 15 min.",
      params: { minutes: 15 },
    });
    const evenRight = await attacker.post("/api/user.php", { email, password: "correct horse battery" });
    expect(evenRight.json().error).toBe("login_locked");

    const owner = new TestClient(app.server, { address: "198.51.100.20" });
    expect((await owner.post("/api/user.php", { email, password: "correct horse battery" })).statusCode).toBe(200);

    // 15 minutes later the address may try again.
    await database.db.execute(
      sql`update login_failures set failed_at = failed_at - interval '16 minutes' where email = ${email}`,
    );
    expect((await attacker.post("/api/user.php", { email, password: "correct horse battery" })).statusCode).toBe(200);
  });

  it("counts parallel guesses: 20 at once from one address cannot get past the lock", async () => {
    const { email } = await signedUp();
    const attacker = new TestClient(app.server, { address: "203.0.113.99" });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attacker.post("/api/user.php", { email, password: `parallel-${i}` })),
    );
    const codes = answers.map((r) => r.json().error as string);
    expect(codes.filter((c) => c === "login_failed")).toHaveLength(4);
    expect(codes.filter((c) => c === "login_locked")).toHaveLength(16);
    const stored = await sqlRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from login_failures where email = ${email}`,
    );
    expect(stored[0]?.n).toBe(5);
  });

  it("locks IPv6 clients by their /64 network", async () => {
    const { email } = await signedUp();
    for (let i = 1; i <= 5; i++) {
      await new TestClient(app.server, { address: `2001:db8:1:2::${i.toString(16)}` }).post("/api/user.php", {
        email,
        password: `v6-${i}`,
      });
    }
    const sameNetwork = await new TestClient(app.server, { address: "2001:db8:1:2:ffff::1" }).post("/api/user.php", {
      email,
      password: "correct horse battery",
    });
    expect(sameNetwork.json().error).toBe("login_locked");
    const otherNetwork = await new TestClient(app.server, { address: "2001:db8:1:3::1" }).post("/api/user.php", {
      email,
      password: "correct horse battery",
    });
    expect(otherNetwork.statusCode).toBe(200);
  });

  it("slows guessing from many addresses down, account-wide, but never the owner's own browser", async () => {
    const { email } = await signedUp();
    // The owner logs in once from their browser, which then carries the device cookie.
    const owner = new TestClient(app.server, { address: "198.51.100.77" });
    expect((await owner.post("/api/user.php", { email, password: "correct horse battery" })).statusCode).toBe(200);
    expect(owner.cookies.get(DEVICE_COOKIE)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // 40 wrong passwords from 40 addresses: the first 10 are judged, then every further guess must
    // wait 1, 2, 4, ... seconds after the last failure and is refused unjudged before that.
    const guess = (i: number, password = `guess-${i}`) =>
      new TestClient(app.server, { address: `203.0.114.${i + 1}` }).post("/api/user.php", { email, password });
    for (let i = 0; i < 10; i++) expect((await guess(i)).json().error, `guess ${i}`).toBe("login_failed");
    // (The last failure is moved ahead, so that a slow machine cannot outwait the first second.)
    await database.db.execute(
      sql`update login_failures set failed_at = now() + interval '10 minutes' where id = (select max(id) from login_failures where email = ${email})`,
    );
    for (let i = 10; i < 40; i++) expect((await guess(i)).json().error).toBe("login_throttled");
    const stored = await sqlRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from login_failures where email = ${email}`,
    );
    expect(stored[0]?.n).toBe(10);
    // Even the right password from a stranger's browser waits: the answer must not tell guesses apart.
    const stranger = await guess(200, "correct horse battery");
    expect(stranger.statusCode).toBe(429);
    const seconds = stranger.json().params.seconds as number;
    expect(seconds).toBeGreaterThan(590);
    expect(stranger.json()).toEqual({
      error: "login_throttled",
      message: t("en", "error.login_throttled", { seconds }),
      params: { seconds },
    });

    // The owner's browser is not held up, and the outsider never locked the owner out.
    owner.cookies.delete(SESSION_COOKIE);
    expect((await owner.post("/api/user.php", { email, password: "correct horse battery" })).statusCode).toBe(200);
    // A forged or someone else's device cookie does not help.
    const forged = new TestClient(app.server, { address: "203.0.114.201" });
    forged.cookies.set(DEVICE_COOKIE, "x".repeat(43));
    expect((await forged.post("/api/user.php", { email, password: "guess-x" })).json().error).toBe("login_throttled");

    // Once the wait is over, a guess is judged again (and the wait doubles).
    await database.db.execute(
      sql`update login_failures set failed_at = failed_at - interval '10 minutes 2 seconds' where email = ${email}`,
    );
    expect((await forged.post("/api/user.php", { email, password: "guess-y" })).json().error).toBe("login_failed");
    expect((await forged.post("/api/user.php", { email, password: "guess-z" })).json()).toMatchObject({
      error: "login_throttled",
      params: { seconds: 2 },
    });
  });

  it("ends the session a browser presents when it logs in again, and refuses a cross-site logout link", async () => {
    const { email } = await signedUp();
    const browser = new TestClient(app.server);
    await browser.post("/api/user.php", { email, password: "correct horse battery" });
    const first = browser.cookies.get(SESSION_COOKIE) as string;
    await browser.post("/api/user.php", { email, password: "correct horse battery" });
    const second = browser.cookies.get(SESSION_COOKIE) as string;
    expect(second).not.toBe(first);
    const stale = new TestClient(app.server);
    stale.cookies.set(SESSION_COOKIE, first);
    expect((await stale.get("/api/user.php")).json()).toEqual({ user: null });

    // A link on another site (Sec-Fetch-Site: cross-site) does not log the member out.
    const crossSite = await browser.get("/api/logout.php", { "sec-fetch-site": "cross-site" });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().error).toBe("bad_origin");
    expect(userResponseSchema.parse((await browser.get("/api/user.php")).json()).user?.email).toBe(email);
    // A browser that sends no Sec-Fetch-* headers is judged by its Origin or Referer (issue #25 hole 7).
    const foreignPages: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { referer: "https://evil.example/page.html" },
      { referer: "https://localhost/" }, // this host, another scheme: another origin
    ];
    for (const foreign of foreignPages) {
      const refused = await browser.get("/api/logout.php", foreign);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: "bad_origin" });
    }
    expect(userResponseSchema.parse((await browser.get("/api/user.php")).json()).user?.email).toBe(email);
    // A link on the site's own page logs out by GET, as the spec's call table says.
    expect((await browser.get("/api/logout.php", { referer: "http://localhost/profile" })).statusCode).toBe(200);
    expect((await browser.get("/api/user.php")).json()).toEqual({ user: null });
    await browser.post("/api/user.php", { email, password: "correct horse battery" });
    // The site's own logout (POST) and a same-origin GET work.
    expect((await browser.post("/api/logout.php", {}, { "sec-fetch-site": "same-origin" })).statusCode).toBe(200);
    expect((await browser.get("/api/user.php")).json()).toEqual({ user: null });
  });

  it("compares the scheme of an Origin, not only its host", async () => {
    const client = new TestClient(app.server);
    const wrongScheme = await client.post(
      "/api/reset-password.php",
      { email: "ghost@example.org" },
      { origin: "https://localhost:80" },
    );
    expect(wrongScheme.statusCode).toBe(403);
    expect(wrongScheme.json().error).toBe("bad_origin");
    const same = await client.post("/api/reset-password.php", { email: "ghost@example.org" }, { origin: "http://localhost:80" });
    expect(same.json().error).toBe("email_not_found");
  });

  it("counts the login rate limit per IPv6 /64", async () => {
    const codes: number[] = [];
    for (let i = 1; i <= 31; i++) {
      const response = await new TestClient(app.server, { address: `2001:db8:9:9::${i.toString(16)}` }).post("/api/user.php", {
        email: `nobody-${i}@example.org`,
        password: "whatever-123",
      });
      codes.push(response.statusCode);
    }
    expect(codes.slice(0, 30).every((code) => code === 401)).toBe(true);
    expect(codes[30]).toBe(429);
  });

  it("treats an unknown e-mail like a wrong password", async () => {
    const response = await new TestClient(app.server, { address: "192.0.2.1" }).post("/api/user.php", {
      email: "nobody@example.org",
      password: "whatever-123",
    });
    expect(response.json()).toEqual({ error: "login_failed", message: "Login failed, please try again" });
  });
});

describe("password reset", () => {
  it("says an unknown address is not found", async () => {
    const response = await new TestClient(app.server).post("/api/reset-password.php", { email: "ghost@example.org" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: "email_not_found", message: "E-mail address not found" });
  });

  it("resets with the mailed single-use link, ends old sessions and logs in", async () => {
    const { client: oldDevice, email } = await signedUp();
    await smtp.next(email); // activation
    const requester = new TestClient(app.server);
    expect((await requester.post("/api/reset-password.php", { email })).statusCode).toBe(200);
    const token =
      new URL(linkIn(await smtp.next(email, /password/i), "/reset-password/do?token=")).searchParams.get("token") ?? "";

    const differ = await requester.post("/api/reset-password-do.php", {
      token,
      password: "brand new secret 1",
      password_confirm: "brand new secret 2",
    });
    expect(differ.json()).toMatchObject({ error: "passwords_differ", message: "The entered passwords are not the same." });

    const done = await requester.post("/api/reset-password-do.php", {
      token,
      password: "brand new secret 1",
      password_confirm: "brand new secret 1",
    });
    expect(done.statusCode).toBe(200);
    expect(userResponseSchema.parse(done.json()).user?.email).toBe(email);
    expect(userResponseSchema.parse((await oldDevice.get("/api/user.php")).json()).user).toBeNull();

    const reuse = await requester.post("/api/reset-password-do.php", {
      token,
      password: "another secret 3",
      password_confirm: "another secret 3",
    });
    expect(reuse.json()).toEqual({ error: "token_invalid", message: "Link expired or invalid, request a new email" });
    expect((await new TestClient(app.server).post("/api/user.php", { email, password: "brand new secret 1" })).statusCode).toBe(
      200,
    );
  });

  it("refuses an expired link", async () => {
    const { email } = await signedUp();
    await new TestClient(app.server).post("/api/reset-password.php", { email });
    const token =
      new URL(linkIn(await smtp.next(email, /password/i), "/reset-password/do?token=")).searchParams.get("token") ?? "";
    await database.db.execute(
      sql`update account_tokens set expires_at = now() - interval '1 minute' where kind = 'reset_password'`,
    );
    const response = await new TestClient(app.server).post("/api/reset-password-do.php", {
      token,
      password: "brand new secret 1",
      password_confirm: "brand new secret 1",
    });
    expect(response.json().error).toBe("token_invalid");
  });
});

describe("settings", () => {
  it("changes the e-mail address after confirmation from the new address", async () => {
    const { client, email } = await signedUp();
    const { email: otherEmail } = await signedUp();
    const wrong = await client.post("/api/mail-change.php", { new_email: uniqueEmail(), password: "nope-nope-1" });
    expect(wrong.json()).toMatchObject({ error: "old_password_wrong", message: "Please check your old password." });
    const invalid = await client.post("/api/mail-change.php", { new_email: "bad@", password: "correct horse battery" });
    expect(invalid.json()).toMatchObject({ error: "new_email_invalid", message: "New email adress is invalid." });
    const taken = await client.post("/api/mail-change.php", { new_email: otherEmail, password: "correct horse battery" });
    expect(taken.json()).toMatchObject({
      error: "new_email_taken",
      message: "This email address already owns an account on this website.",
    });

    const target = uniqueEmail();
    expect((await client.post("/api/mail-change.php", { new_email: target, password: "correct horse battery" })).statusCode).toBe(
      200,
    );
    const token = new URL(linkIn(await smtp.next(target), "/mail-change/do?token=")).searchParams.get("token") ?? "";
    const done = await client.post("/api/mail-change-do.php", { token });
    expect(userResponseSchema.parse(done.json()).user?.email).toBe(target);
    expect(
      (await new TestClient(app.server).post("/api/user.php", { email, password: "correct horse battery" })).statusCode,
    ).toBe(401);
    expect(
      (await new TestClient(app.server).post("/api/user.php", { email: target, password: "correct horse battery" })).statusCode,
    ).toBe(200);
  });

  it("changes the password and can end the other sessions", async () => {
    const { client, email } = await signedUp();
    const other = new TestClient(app.server);
    await other.post("/api/user.php", { email, password: "correct horse battery" });
    const wrong = await client.post("/api/password.php", {
      old_password: "x",
      new_password: "a new good secret",
      new_password_confirm: "a new good secret",
    });
    expect(wrong.json().error).toBe("old_password_wrong");
    const ok = await client.post("/api/password.php", {
      old_password: "correct horse battery",
      new_password: "a new good secret",
      new_password_confirm: "a new good secret",
      end_other_sessions: true,
    });
    expect(ok.statusCode).toBe(200);
    expect(userResponseSchema.parse((await client.get("/api/user.php")).json()).user?.email).toBe(email);
    expect(userResponseSchema.parse((await other.get("/api/user.php")).json()).user).toBeNull();
  });

  it("saves language, invisible mode and notification preferences", async () => {
    const { client } = await signedUp();
    expect(userResponseSchema.parse((await client.put("/api/user.php", { language: "pl" })).json()).user?.language).toBe("pl");
    expect((await client.put("/api/user.php", { language: "xx" })).statusCode).toBe(422);
    expect(userResponseSchema.parse((await client.put("/api/invisible.php", { invisible: true })).json()).user?.invisible).toBe(
      true,
    );

    // Each change is announced to the member's other tabs and devices (user.changed, numbered).
    const userId = userResponseSchema.parse((await client.get("/api/user.php")).json()).user?.id as number;
    expect(await app.services.events.latest(userId)).toBe(2);
    expect((await app.services.events.since(userId, 0)).events.map((e) => e.event.type)).toEqual([
      "user.changed",
      "user.changed",
    ]);

    // Promotions are off until the member agrees (issue #28): no reason, and not among the disabled ones
    // (spec §2's activation reminder reads those as "some e-mails are off").
    const categories = (response: { json(): { notifications: { category: string }[] } }) =>
      Object.fromEntries(response.json().notifications.map((n) => [n.category, n]));
    const before = await client.get("/api/notifications.php");
    expect(categories(before).promotions).toEqual({ category: "promotions", enabled: false, reason: null });
    expect(categories(before).news).toEqual({ category: "news", enabled: true, reason: null });
    const consent = await client.put("/api/notifications.php", { enabled: { promotions: true } });
    expect(categories(consent).promotions).toEqual({ category: "promotions", enabled: true, reason: null });
    const consentAt = async () =>
      (
        await sqlRows<{ at: Date | null }>(database.db, sql`select promotions_consent_at as at from users where id = ${userId}`)
      )[0]?.at;
    expect(await consentAt()).not.toBeNull();

    const off = await client.put("/api/notifications.php", { enabled: { promotions: false, news: false } });
    expect(await app.services.events.latest(userId)).toBe(4);
    const byCategory = categories(off);
    expect(byCategory.promotions).toEqual({ category: "promotions", enabled: false, reason: null });
    expect(byCategory.news).toEqual({ category: "news", enabled: false, reason: "user" });
    expect(byCategory.new_messages).toEqual({ category: "new_messages", enabled: true, reason: null });
    expect(off.json().notifications).toHaveLength(8);
    const user = userResponseSchema.parse((await client.get("/api/user.php")).json()).user;
    expect(user?.notifications_disabled).toEqual([{ category: "news", reason: "user" }]);
    expect(await consentAt()).toBeNull();
    const on = await client.put("/api/notifications.php", { enabled: { news: true } });
    expect(on.json().notifications.find((n: { category: string }) => n.category === "news").enabled).toBe(true);
  });
});

describe("deletion and reactivation", () => {
  it("puts the account in pending deletion, ends the session, and reactivates through the e-mailed link", async () => {
    const { client, email } = await signedUp();
    await smtp.next(email);
    const wrong = await client.post("/api/delete-account.php", { password: "wrong-password" });
    expect(wrong.json().error).toBe("password_wrong");
    expect((await client.post("/api/delete-account.php", { password: "correct horse battery" })).statusCode).toBe(200);
    expect(userResponseSchema.parse((await client.get("/api/user.php")).json()).user).toBeNull();

    const first =
      new URL(linkIn(await smtp.next(email, /deleted/), "/account-reactivate?token=")).searchParams.get("token") ?? "";

    // The right password on a pending account: refused with the spec's message, and a fresh link is sent.
    const login = await new TestClient(app.server).post("/api/user.php", { email, password: "correct horse battery" });
    expect(login.json()).toMatchObject({ error: "email_pending_deletion", message: t("en", "error.email_pending_deletion") });
    const token =
      new URL(linkIn(await smtp.next(email, /deleted/), "/account-reactivate?token=")).searchParams.get("token") ?? "";
    expect(token).not.toBe(first);
    const signup = await new TestClient(app.server).post("/api/signup.php", signupBody(email));
    expect(signup.json()).toMatchObject({ error: "email_pending_deletion", message: t("en", "error.email_pending_deletion") });

    // Only the page's POST reactivates. The first mail's link still works after the login sent another
    // (issue #29: earlier links stay valid until one is used or they expire); once one is used, none does.
    expect((await new TestClient(app.server).post("/api/reactivate.php", { token: first })).json()).toEqual({ ok: true });
    expect((await new TestClient(app.server).post("/api/reactivate.php", { token: first })).json().error).toBe("token_invalid");
    expect((await new TestClient(app.server).post("/api/reactivate.php", { token })).json().error).toBe("token_invalid");
    const back = await new TestClient(app.server).post("/api/user.php", { email, password: "correct horse battery" });
    expect(back.statusCode).toBe(200);
    // It never confirmed its address, so it comes back unconfirmed, its profile still hidden (issue #29).
    expect(userResponseSchema.parse(back.json()).user).toMatchObject({
      status: "not_confirmed",
      profile: { status: "disabled" },
    });
  });

  it("brings a confirmed account back active, and a reactivation link no longer works after it expired", async () => {
    const { client, email } = await signedUp();
    const activation = pathOf(linkIn(await smtp.next(email), "/api/activation.php?token="));
    expect((await new TestClient(app.server).get(activation)).headers.location).toBe("/activate/done");
    expect((await client.post("/api/delete-account.php", { password: "correct horse battery" })).statusCode).toBe(200);
    const expired =
      new URL(linkIn(await smtp.next(email, /deleted/), "/account-reactivate?token=")).searchParams.get("token") ?? "";
    await new TestClient(app.server).post("/api/user.php", { email, password: "correct horse battery" });
    const token =
      new URL(linkIn(await smtp.next(email, /deleted/), "/account-reactivate?token=")).searchParams.get("token") ?? "";
    await database.db.execute(
      sql`update account_tokens set expires_at = now() - interval '1 second' where token_hash = ${hashToken(expired)}`,
    );
    expect((await new TestClient(app.server).post("/api/reactivate.php", { token: expired })).json().error).toBe("token_invalid");
    expect((await new TestClient(app.server).post("/api/reactivate.php", { token })).json()).toEqual({ ok: true });
    const back = await new TestClient(app.server).post("/api/user.php", { email, password: "correct horse battery" });
    expect(userResponseSchema.parse(back.json()).user).toMatchObject({ status: "active", profile: { status: "active" } });
  });

  it("spends every older link of a deleted account", async () => {
    const { client, email } = await signedUp();
    await new TestClient(app.server).post("/api/reset-password.php", { email });
    const token =
      new URL(linkIn(await smtp.next(email, /password/i), "/reset-password/do?token=")).searchParams.get("token") ?? "";
    await client.post("/api/delete-account.php", { password: "correct horse battery" });
    const reset = await new TestClient(app.server).post("/api/reset-password-do.php", {
      token,
      password: "brand new secret 1",
      password_confirm: "brand new secret 1",
    });
    expect(reset.json().error).toBe("token_invalid");
  });

  it("keeps the deletion when the mail server fails", async () => {
    const { client, email } = await signedUp();
    await smtp.next(email);
    await smtp.close();
    try {
      const response = await client.post("/api/delete-account.php", { password: "correct horse battery" });
      expect(response.statusCode).toBe(200);
    } finally {
      smtp = await startSmtp(Number(new URL(smtpUrl).port));
    }
    const status = await sqlRows<{ status: string }>(database.db, sql`select status from users where email = ${email}`);
    expect(status[0]?.status).toBe("pending_deletion");
  });

  it("erases the account and everything it owns 14 days after deletion, not before", async () => {
    const { client, email, user } = await signedUp();
    const photo = await (await import("sharp"))
      .default({ create: { width: 40, height: 40, channels: 3, background: "#345" } })
      .jpeg()
      .toBuffer();
    const boundary = "----purge";
    const uploaded = await app.server.inject({
      method: "POST",
      url: "/api/photos.php",
      remoteAddress: client.address,
      headers: {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        cookie: `${SESSION_COOKIE}=${client.cookies.get(SESSION_COOKIE)}`,
      },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        photo,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(uploaded.statusCode).toBe(200);
    const files = uploaded.json().photos.flatMap((p: { url: string; thumb_url: string }) => [p.url, p.thumb_url]) as string[];
    const { existsSync } = await import("node:fs");
    const onDisk = (url: string) => existsSync(`${app.dataDir}/files/${url.replace("/cdn/", "")}`);
    expect(files.every(onDisk)).toBe(true);
    await client.post("/api/delete-account.php", { password: "correct horse battery" });
    expect(await app.services.accounts.purgeExpiredDeletions()).toBe(0);
    await database.db.execute(sql`update users set deletion_requested_at = now() - interval '13 days' where email = ${email}`);
    expect(await app.services.accounts.purgeExpiredDeletions()).toBe(0);
    await database.db.execute(sql`update users set deletion_requested_at = now() - interval '15 days' where email = ${email}`);
    expect(await app.services.accounts.purgeExpiredDeletions()).toBe(1);
    const left = await sqlRows<{ n: number }>(
      database.db,
      sql`select (select count(*) from users where email = ${email}) + (select count(*) from profiles where user_id = ${user?.id ?? 0}) + (select count(*) from credit_ledger where user_id = ${user?.id ?? 0}) + (select count(*) from credit_accounts where user_id = ${user?.id ?? 0}) as n`,
    );
    expect(Number(left[0]?.n)).toBe(0);
    expect(files.some(onDisk)).toBe(false);
    const leftovers = await sqlRows<{ n: number }>(
      database.db,
      sql`select (select count(*) from sessions where user_id = ${user?.id ?? 0}) + (select count(*) from account_tokens where user_id = ${user?.id ?? 0}) + (select count(*) from photos p join profiles f on f.id = p.profile_id where f.user_id = ${user?.id ?? 0}) as n`,
    );
    expect(Number(leftovers[0]?.n)).toBe(0);
  });

  it("erases through the hourly durable job, once per hour", async () => {
    const { client, email } = await signedUp();
    await client.post("/api/delete-account.php", { password: "correct horse battery" });
    await database.db.execute(sql`update users set deletion_requested_at = now() - interval '15 days' where email = ${email}`);
    // Every scheduled job is due on a new database: more of them than run at once.
    await app.services.jobs.runAllDue();
    expect(await sqlCount(database.db, sql`select count(*)::int as n from users where email = ${email}`)).toBe(0);
    const runs = sql`select count(*)::int as n from jobs where name = 'accounts.purge-deletions' and state = 'done' and slot is not null`;
    expect(await sqlCount(database.db, runs)).toBe(1);
    await app.services.jobs.runAllDue();
    expect(await sqlCount(database.db, sql`select count(*)::int as n from jobs where name = 'accounts.purge-deletions'`)).toBe(1);
  });
});

describe("cross-site protection", () => {
  it("refuses state-changing calls from another origin or as a plain form post", async () => {
    const client = new TestClient(app.server);
    const foreign = await client.post("/api/signup.php", signupBody(uniqueEmail()), { origin: "https://evil.example" });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error).toBe("bad_origin");
    const crossSite = await client.post("/api/user.php", { email: "a@b.cd", password: "x" }, { "sec-fetch-site": "cross-site" });
    expect(crossSite.json().error).toBe("bad_origin");
    const form = await app.server.inject({
      method: "POST",
      url: "/api/user.php",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "email=a%40b.cd&password=x",
    });
    expect(form.statusCode).toBe(415);
    const sameSite = await client.post(
      "/api/user.php",
      { email: "a@b.cd", password: "x-y-z-1234" },
      { origin: "http://localhost" },
    );
    expect(sameSite.json().error).toBe("login_failed");
  });

  it("rate-limits signups per address", async () => {
    const client = new TestClient(app.server, { address: "192.0.2.200" });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await client.post("/api/signup.php", signupBody("bad"))).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
