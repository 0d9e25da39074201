import { ALL_STAFF_ENDPOINTS, STAFF_ROLES, STAFF_RULES, STAFF_SESSION_COOKIE, staffMay } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { sqlCount } from "../../test/factories.ts";
import { useTestApp } from "../../test/harness.ts";
import { signUpMember } from "../../test/members.ts";
import { createStaff, STAFF_TEST_PASSWORD, staffLogin } from "../../test/staff.ts";
import { StaffService } from "./service.ts";

const context = useTestApp({ seed: { profiles: 0 } });
const MINUTE = 60_000;

const auditRows = () => sqlCount(context.app.services.database.db, sql`select count(*)::int as n from staff_audit`);

describe("staff login: password and a second factor", () => {
  it("logs in with password and TOTP, and the session answers /staff/api/me", async () => {
    const { client, staff } = await staffLogin(context.app, "operator");
    const me = await client.get("/staff/api/me");
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ staff });
    expect(me.headers["cache-control"]).toBe("no-store");
  });

  it("sets a session cookie for /staff only, HttpOnly and SameSite=Strict", async () => {
    const enrolment = await createStaff(context.app, "support");
    const response = await context.app.server.inject({
      method: "POST",
      url: "/staff/api/login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({
        email: enrolment.account.email,
        password: STAFF_TEST_PASSWORD,
        code: StaffService.codeFor(enrolment.totp_secret),
      }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const cookie = (response.cookies as Array<Record<string, unknown>>).find((c) => c.name === STAFF_SESSION_COOKIE);
    expect(cookie).toMatchObject({ path: "/staff", httpOnly: true, sameSite: "Strict" });
    expect(cookie?.maxAge).toBeUndefined();
  });

  it("refuses a wrong code, a wrong password and an unknown address alike, and a code used twice", async () => {
    const enrolment = await createStaff(context.app, "support");
    const client = new TestClient(context.app.server);
    const login = (password: string, code: string, email = enrolment.account.email) =>
      client.post("/staff/api/login", { email, password, code });
    const code = StaffService.codeFor(enrolment.totp_secret);
    const wrongCode = code === "000000" ? "000001" : "000000";
    for (const response of [
      await login(STAFF_TEST_PASSWORD, wrongCode),
      await login("wrong password!", code),
      await login(STAFF_TEST_PASSWORD, code, "nobody@staff.example"),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe("staff_login_failed");
    }
    expect((await login(STAFF_TEST_PASSWORD, code)).statusCode).toBe(200);
    // The same code again (an overheard one): refused.
    const replay = await new TestClient(context.app.server).post("/staff/api/login", {
      email: enrolment.account.email,
      password: STAFF_TEST_PASSWORD,
      code,
    });
    expect(replay.statusCode).toBe(401);
  });

  it("takes each recovery code once in place of a TOTP code", async () => {
    const enrolment = await createStaff(context.app, "moderator");
    expect(enrolment.recovery_codes).toHaveLength(STAFF_RULES.recoveryCodes);
    const recovery = enrolment.recovery_codes[3] ?? "";
    const login = (code: string) =>
      new TestClient(context.app.server).post("/staff/api/login", {
        email: enrolment.account.email,
        password: STAFF_TEST_PASSWORD,
        code,
      });
    expect((await login(recovery.toLowerCase())).statusCode).toBe(200);
    expect((await login(recovery)).statusCode).toBe(401);
    expect((await login(enrolment.recovery_codes[4] ?? "")).statusCode).toBe(200);
  });

  it("locks an address out of an account after 5 failures, not another address", async () => {
    const enrolment = await createStaff(context.app, "operator");
    const attacker = new TestClient(context.app.server);
    for (let i = 0; i < STAFF_RULES.loginFailuresBeforeLock - 1; i++) {
      const response = await attacker.post("/staff/api/login", {
        email: enrolment.account.email,
        password: "guess",
        code: "123456",
      });
      expect(response.statusCode).toBe(401);
    }
    const fifth = await attacker.post("/staff/api/login", { email: enrolment.account.email, password: "guess", code: "123456" });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().error).toBe("login_locked");
    const right = {
      email: enrolment.account.email,
      password: STAFF_TEST_PASSWORD,
      code: StaffService.codeFor(enrolment.totp_secret),
    };
    expect((await attacker.post("/staff/api/login", right)).statusCode).toBe(429);
    expect((await new TestClient(context.app.server).post("/staff/api/login", right)).statusCode).toBe(200);
  });

  it("refuses bad input with the contract's field errors", async () => {
    const response = await new TestClient(context.app.server).post("/staff/api/login", { email: "x", password: "", code: "12" });
    expect(response.statusCode).toBe(422);
  });

  it("ends a session after 30 minutes without a request, and after 12 hours in any case", async () => {
    const enrolment = await createStaff(context.app, "support");
    const { staff } = context.app.services;
    const start = Date.now();
    const { token } = await staff.login(
      enrolment.account.email,
      STAFF_TEST_PASSWORD,
      StaffService.codeFor(enrolment.totp_secret, start),
      "198.51.100.7",
      start,
    );
    expect(await staff.resolve(token, start + 29 * MINUTE)).not.toBeNull();
    // Activity at 29 min moved the idle clock: at 58 min it still stands, 31 min after that it does not.
    expect(await staff.resolve(token, start + 58 * MINUTE)).not.toBeNull();
    expect(await staff.resolve(token, start + (58 + STAFF_RULES.idleMinutes + 1) * MINUTE)).toBeNull();
    const second = await staff.login(
      enrolment.account.email,
      STAFF_TEST_PASSWORD,
      StaffService.codeFor(enrolment.totp_secret, start + 120 * MINUTE),
      "198.51.100.7",
      start + 120 * MINUTE,
    );
    let at = start + 120 * MINUTE;
    for (; at < start + 120 * MINUTE + STAFF_RULES.maxHours * 60 * MINUTE - 20 * MINUTE; at += 20 * MINUTE) {
      expect(await staff.resolve(second.token, at)).not.toBeNull();
    }
    expect(await staff.resolve(second.token, start + 120 * MINUTE + STAFF_RULES.maxHours * 60 * MINUTE + MINUTE)).toBeNull();
  });

  it("logs out: the cookie no longer opens anything", async () => {
    const { client } = await staffLogin(context.app, "admin");
    const cookie = client.cookieHeader();
    expect((await client.post("/staff/api/logout")).statusCode).toBe(200);
    const after = await context.app.server.inject({ method: "GET", url: "/staff/api/me", headers: { cookie } });
    expect(after.statusCode).toBe(404);
  });
});

describe("who may call what", () => {
  /** A path of the table with its :params filled in. */
  const pathOf = (path: string) => path.replace(/:[a-zA-Z_]+/g, "1");

  it("answers 404 without a staff session, and to a member's session", async () => {
    const member = await signUpMember(context.app);
    for (const endpoint of Object.values(ALL_STAFF_ENDPOINTS)) {
      if (endpoint === ALL_STAFF_ENDPOINTS.login) continue;
      for (const client of [new TestClient(context.app.server), member.client]) {
        const response = await client.request(endpoint.method, pathOf(endpoint.path), endpoint.method === "GET" ? undefined : {});
        expect(response.statusCode, `${endpoint.method} ${endpoint.path}`).toBe(404);
        expect(response.json().error).toBe("not_found");
      }
    }
  });

  it("refuses every role every call it has no right to (403 staff_forbidden), changing nothing", async () => {
    const logins = await Promise.all(STAFF_ROLES.map((role) => staffLogin(context.app, role)));
    const before = await auditRows();
    let refused = 0;
    for (const { staff, client } of logins) {
      for (const endpoint of Object.values(ALL_STAFF_ENDPOINTS)) {
        if (staffMay(staff.role, endpoint)) continue;
        const response = await client.request(endpoint.method, pathOf(endpoint.path), endpoint.method === "GET" ? undefined : {});
        expect(response.statusCode, `${staff.role} ${endpoint.method} ${endpoint.path}`).toBe(403);
        expect(response.json().error).toBe("staff_forbidden");
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
    expect(await auditRows()).toBe(before);
  });

  it("unknown staff API paths answer JSON 404", async () => {
    const { client } = await staffLogin(context.app, "admin");
    const response = await client.get("/staff/api/no-such-thing");
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe("not_found");
  });
});

describe("staff accounts (admin)", () => {
  it("an admin makes an account, which can log in with its enrolment; the audit log records it", async () => {
    const { client, staff: admin } = await staffLogin(context.app, "admin");
    const created = await client.post("/staff/api/staff", {
      email: `new.${Date.now()}@staff.example`,
      name: "Nora New",
      role: "operator",
      language: "nl",
      password: "a long enough password",
    });
    expect(created.statusCode, created.body).toBe(200);
    const enrolment = created.json();
    expect(enrolment.qr_svg).toContain("<svg");
    expect(enrolment.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    expect(JSON.stringify(enrolment.account)).not.toContain("password");
    const login = await new TestClient(context.app.server).post("/staff/api/login", {
      email: enrolment.account.email,
      password: "a long enough password",
      code: StaffService.codeFor(enrolment.totp_secret),
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().staff.language).toBe("nl");
    const log = await client.get(`/staff/api/audit?staff_id=${admin.id}`);
    expect(log.json().entries[0]).toMatchObject({
      action: "staff.create",
      object_type: "staff",
      object_id: String(enrolment.account.id),
      staff_email: admin.email,
    });
    // No secret in the log.
    expect(JSON.stringify(log.json())).not.toContain(enrolment.totp_secret);
  });

  it("deactivating an account ends its sessions at once; an admin cannot deactivate themself", async () => {
    const admin = await staffLogin(context.app, "admin");
    const operator = await staffLogin(context.app, "operator");
    expect((await operator.client.get("/staff/api/me")).statusCode).toBe(200);
    const off = await admin.client.put(`/staff/api/staff/${operator.staff.id}`, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect((await operator.client.get("/staff/api/me")).statusCode).toBe(404);
    const self = await admin.client.put(`/staff/api/staff/${admin.staff.id}`, { active: false });
    expect(self.statusCode).toBe(403);
  });

  it("a duplicate e-mail is refused and records nothing", async () => {
    const admin = await staffLogin(context.app, "admin");
    const before = await auditRows();
    const again = await admin.client.post("/staff/api/staff", {
      email: admin.staff.email,
      name: "Twin",
      role: "support",
      language: "en",
      password: "a long enough password",
    });
    expect(again.statusCode).toBe(409);
    expect(await auditRows()).toBe(before);
  });
});

describe("the audit log", () => {
  it("is written in the change's transaction: a change that fails leaves no row", async () => {
    const { staff } = context.app.services;
    const admin = await staffLogin(context.app, "admin");
    const before = await auditRows();
    await expect(
      staff.audited(
        { staff: admin.staff, address: "198.51.100.1" },
        () => ({ action: "test.fail", objectType: "member", objectId: 1 }),
        async (tx) => {
          await tx.execute(sql`select 1`);
          throw new Error("the change failed");
        },
      ),
    ).rejects.toThrow("the change failed");
    expect(await auditRows()).toBe(before);
    // And a record that cannot be written undoes the change.
    const { db } = context.app.services.database;
    await expect(
      staff.audited(
        { staff: admin.staff, address: null },
        () => ({ action: "test.undo", objectType: "staff", objectId: admin.staff.id, after: { bad: 1n } }),
        (tx) => tx.execute(sql`update staff_accounts set name = 'Changed' where id = ${admin.staff.id}`),
      ),
    ).rejects.toThrow();
    expect(await sqlCount(db, sql`select count(*)::int as n from staff_accounts where name = 'Changed'`)).toBe(0);
  });

  it("is append-only: the database refuses to change or remove a row", async () => {
    const admin = await staffLogin(context.app, "admin");
    await context.app.services.staff.audited(
      { staff: admin.staff, address: "198.51.100.1" },
      () => ({ action: "test.keep", objectType: "member", objectId: 7, memberId: 7, before: { a: 1 }, after: { a: 2 } }),
      async () => null,
    );
    const { db } = context.app.services.database;
    await expect(db.execute(sql`update staff_audit set action = 'x'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from staff_audit`)).rejects.toThrow();
    expect(await sqlCount(db, sql`select count(*)::int as n from staff_audit where action = 'test.keep'`)).toBe(1);
  });

  it("shows a member's entries to support; the whole log to admins only", async () => {
    const admin = await staffLogin(context.app, "admin");
    const support = await staffLogin(context.app, "support");
    await context.app.services.staff.audited(
      { staff: admin.staff, address: "198.51.100.1" },
      () => ({ action: "member.note", objectType: "member", objectId: 4242, memberId: 4242 }),
      async () => null,
    );
    const own = await support.client.get("/staff/api/audit?member_id=4242");
    expect(own.statusCode).toBe(200);
    expect(own.json().entries).toEqual([
      expect.objectContaining({ action: "member.note", member_id: 4242, staff_id: admin.staff.id, address: "198.51.100.1" }),
    ]);
    expect((await support.client.get("/staff/api/audit")).statusCode).toBe(403);
    expect((await admin.client.get("/staff/api/audit")).statusCode).toBe(200);
  });
});
