import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { addPhoto, block, createMember, sqlCount, sqlRows, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { paidWithDiscount } from "../../test/payments.ts";
import { staffLogin } from "../../test/staff.ts";
import { sendRules } from "../chat/routes.ts";

let database: TestDatabase;
let app: TestApp;

useTestApp({ seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
});

const member = (options: Parameters<typeof createMember>[1] = {}) =>
  createMember(app, { activate: true, country: "NL", credits: 500, ...options });

const jpeg = (shade: number) =>
  sharp({ create: { width: 300, height: 300, channels: 3, background: { r: shade, g: 10, b: 200 } } })
    .jpeg()
    .toBuffer();

async function say(from: TestMember, to: TestMember, text: string) {
  const sent = await from.client.post("/api/message.php", { profile_id: to.profileId, client_id: randomUUID(), text });
  expect(sent.statusCode, sent.body).toBe(200);
}

async function sendChatPhoto(from: TestMember, to: TestMember, bytes: Buffer) {
  const rules = sendRules(await app.services.site.settingsFor("", "en"));
  await app.services.chat.sendPhoto(from, { profile_id: to.profileId, client_id: randomUUID() }, bytes, rules);
}

type Unzipped = Record<string, Uint8Array>;
const json = (files: Unzipped, name: string): unknown => JSON.parse(strFromU8(files[name] ?? new Uint8Array()));
/** Every file of the archive as text (photos as latin1), to search for what must not be inside. */
const allText = (files: Unzipped) =>
  Object.values(files)
    .map((bytes) => Buffer.from(bytes).toString("latin1"))
    .join("\n");

async function download(who: TestMember) {
  const response = await who.client.get("/api/export.php");
  expect(response.statusCode, response.body).toBe(200);
  return { response, files: unzipSync(new Uint8Array(response.rawPayload)) };
}

describe("the data export (GET /api/export.php, GDPR art. 15/20)", () => {
  it("holds the member's data of every module, their photo files and a README in their language, and nothing of anyone else's or any secret", async () => {
    const anna = await member({ name: "Anna", locale: "de" });
    const ben = await member({ name: "Ben", gender: "male" });
    const cleo = await member({ name: "Cleo" });
    const dirk = await member({ name: "Dirk", gender: "male" });
    expect((await anna.client.put("/api/user.php", { language: "de" })).statusCode).toBe(200);

    // Account and consents: a notification category switched off.
    expect((await anna.client.put("/api/notifications.php", { enabled: { promotions: true, news: false } })).statusCode).toBe(
      200,
    );
    // Profile and photos.
    expect((await anna.client.put("/api/profile.php", { about: "Anna mag lange Spaziergänge am Meer." })).statusCode).toBe(200);
    await addPhoto(app, anna.profileId, { main: true });
    const cleoPhoto = await addPhoto(app, cleo.profileId, { main: true });
    // Likes both ways (a match) and one received.
    await anna.client.post("/api/like.php", { id: ben.profileId });
    await ben.client.post("/api/like.php", { id: anna.profileId });
    await dirk.client.post("/api/like.php", { id: anna.profileId });
    // A conversation with a chat photo each way; and one between two others.
    await say(anna, ben, "Hallo Ben, wie geht's?");
    await say(ben, anna, "Hi Anna! Fine, and you?");
    await sendChatPhoto(anna, ben, await jpeg(30));
    await sendChatPhoto(ben, anna, await jpeg(60));
    await say(ben, cleo, "SECRET-BETWEEN-BEN-AND-CLEO");
    await sendChatPhoto(cleo, ben, await jpeg(90));
    // A block, a complaint, and a paid payment with a discount code (credits ledger, redemption).
    await block(app, anna, cleo);
    const complaint = await anna.client.post("/api/complaint.php", {
      subject: "fake_profile",
      description: "This profile uses photos of someone famous, please check it.",
    });
    expect(complaint.statusCode, complaint.body).toBe(200);
    await cleo.client.post("/api/complaint.php", { subject: "other", description: "CLEO-COMPLAINT-TEXT about something else." });
    // A report Anna filed, and one filed about her.
    const reported = await anna.client.post("/api/report.php", {
      profile_id: dirk.profileId,
      reason: "spam",
      text: "Sends links",
    });
    expect(reported.statusCode, reported.body).toBe(200);
    await dirk.client.post("/api/report.php", { profile_id: anna.profileId, reason: "spam", text: "DIRK-REPORT-TEXT" });
    const paymentId = await paidWithDiscount(app, anna, "SPRING10");

    const { response, files } = await download(anna);
    expect(response.headers["content-type"]).toBe("application/zip");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename=".+-data-\d+-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(response.headers["cache-control"]).toBe("no-store");

    const names = Object.keys(files);
    expect(names).toEqual(
      expect.arrayContaining([
        "README.txt",
        "account.json",
        "logins.json",
        "profile.json",
        "photos.json",
        "likes.json",
        "blocks.json",
        "conversations.json",
        "credits.json",
        "payments.json",
        "discounts.json",
        "complaints.json",
        "reports.json",
      ]),
    );
    // README in the member's language (German), naming the files present.
    const readme = strFromU8(files["README.txt"] ?? new Uint8Array());
    expect(readme).toContain("deine Daten");
    expect(readme).toContain(anna.email);
    expect(readme).toContain("- conversations.json:");
    expect(readme).toContain("- chat-photos/:");

    expect(json(files, "account.json")).toMatchObject({
      id: anna.userId,
      email: anna.email,
      status: "not_confirmed",
      language: "de",
      notifications: expect.arrayContaining([
        { category: "news", enabled: false, reason: "user" },
        { category: "promotions", enabled: true, reason: null },
      ]),
      // The consent to promotions, with its time (GDPR art. 7: the controller can show it was given).
      promotions_consent_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const logins = json(files, "logins.json") as { sessions: object[]; devices: object[] };
    expect(logins.sessions.length).toBeGreaterThan(0);
    expect(logins.sessions[0]).toEqual({
      created_at: expect.any(String),
      last_seen_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(json(files, "profile.json")).toMatchObject({
      id: anna.profileId,
      name: "Anna",
      about: "Anna mag lange Spaziergänge am Meer.",
    });

    const photos = json(files, "photos.json") as { id: number; file: string; main: boolean }[];
    expect(photos).toEqual([expect.objectContaining({ main: true, status: "active" })]);
    expect(photos[0]?.file).toMatch(/^photos\/\d+\.jpg$/);
    const photoFile = files[photos[0]?.file ?? ""];
    expect(photoFile && (await sharp(photoFile).metadata()).format).toBe("jpeg");

    const likes = json(files, "likes.json") as { given: object[]; received: object[] };
    expect(likes.given).toEqual([expect.objectContaining({ profile_id: ben.profileId, matched_at: expect.any(String) })]);
    expect(likes.received).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ profile_id: ben.profileId }),
        expect.objectContaining({ profile_id: dirk.profileId, matched_at: null }),
      ]),
    );
    expect(json(files, "blocks.json")).toEqual([{ blocked_profile_id: cleo.profileId, blocked_at: expect.any(String) }]);

    const conversations = json(files, "conversations.json") as {
      with_profile_id: number;
      messages: { from_me: boolean; kind: string; text: string; photo: string | null }[];
    }[];
    expect(conversations).toHaveLength(1);
    expect(conversations[0]?.with_profile_id).toBe(ben.profileId);
    const messages = conversations[0]?.messages ?? [];
    expect(messages.map((m) => [m.from_me, m.kind, m.text])).toEqual([
      [true, "text", "Hallo Ben, wie geht's?"],
      [false, "text", "Hi Anna! Fine, and you?"],
      [true, "photo", ""],
      [false, "photo", ""],
    ]);
    const chatPhotos = messages.flatMap((m) => m.photo ?? []);
    expect(chatPhotos).toHaveLength(2);
    for (const file of chatPhotos) expect(files[file]?.byteLength).toBeGreaterThan(100);
    expect(names.filter((name) => name.startsWith("chat-photos/"))).toHaveLength(2);

    const credits = json(files, "credits.json") as { balance: number; premium: boolean; ledger: { reason: string }[] };
    expect(credits.premium).toBe(true);
    expect(credits.ledger.map((row) => row.reason)).toEqual(
      expect.arrayContaining(["test_grant", "message", "photo", "purchase"]),
    );
    const [account] = await sqlRows<{ balance: number }>(
      database.db,
      sql`select balance from credit_accounts where user_id = ${anna.userId}`,
    );
    expect(credits.balance).toBe(account?.balance);
    expect(json(files, "payments.json")).toMatchObject({
      payments: [{ order: paymentId, status: "paid", discount_code: "SPRING10", discount_percentage: 10 }],
    });
    expect(json(files, "discounts.json")).toMatchObject({
      redemptions: [{ code: "SPRING10", order: paymentId, status: "redeemed" }],
    });
    expect(json(files, "complaints.json")).toMatchObject([{ subject: "fake_profile", status: "open" }]);
    expect(json(files, "reports.json")).toMatchObject([
      { object_type: "profile", reason: "spam", text: "Sends links", status: "open" },
    ]);

    // Nothing of the others': their addresses, their conversation, their photo files, their complaint.
    const text = allText(files);
    for (const other of [ben, cleo, dirk]) expect(text).not.toContain(other.email);
    expect(text).not.toContain("SECRET-BETWEEN-BEN-AND-CLEO");
    expect(text).not.toContain("CLEO-COMPLAINT-TEXT");
    expect(text).not.toContain("DIRK-REPORT-TEXT");
    expect(text).not.toContain(cleoPhoto.filename);
    expect(names.filter((name) => name.startsWith("chat-photos/"))).toHaveLength(2);
    // No secret: no password hash, no session or device token (nor their hashes), no e-mailed link's hash.
    const secrets = await sqlRows<{ value: string }>(
      database.db,
      sql`select password_hash as value from users where id = ${anna.userId}
          union all select token_hash from sessions where user_id = ${anna.userId}
          union all select token_hash from login_devices where user_id = ${anna.userId}
          union all select token_hash from account_tokens where user_id = ${anna.userId}`,
    );
    expect(secrets.length).toBeGreaterThan(2);
    for (const { value } of secrets) expect(text).not.toContain(value);
    for (const cookie of anna.client.cookies.values()) expect(text).not.toContain(cookie);
    expect(text).not.toMatch(/argon2/);
  });

  it("answers only a logged-in member, and each member only their own data", async () => {
    const visitor = await app.server.inject({ url: "/api/export.php" });
    expect(visitor.statusCode).toBe(403);
    expect(visitor.json().error).toBe("authentication_required");

    const eva = await member({ name: "Eva" });
    const finn = await member({ name: "Finn", gender: "male" });
    const { files } = await download(finn);
    expect(json(files, "account.json")).toMatchObject({ id: finn.userId, email: finn.email });
    expect(allText(files)).not.toContain(eva.email);
    // The call names no member: a query asking for another one changes nothing.
    const sneaky = await finn.client.get(`/api/export.php?user_id=${eva.userId}`);
    const sneakyFiles = unzipSync(new Uint8Array(sneaky.rawPayload));
    expect(json(sneakyFiles, "account.json")).toMatchObject({ id: finn.userId });
  });

  it("is rate limited per client address", async () => {
    const gus = await member({ name: "Gus", gender: "male" });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await gus.client.get("/api/export.php")).statusCode);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

const auditRows = (action: string, memberId: number) =>
  sqlCount(database.db, sql`select count(*)::int as n from staff_audit where action = ${action} and member_id = ${memberId}`);

describe("data requests in the staff console (support; admin implicit)", () => {
  it("finds the member by account number or e-mail address, never a fictional profile's account", async () => {
    const support = await staffLogin(app, "support");
    const hana = await member({ name: "Hana" });
    for (const q of [String(hana.userId), hana.email.toUpperCase()]) {
      const found = await support.client.get(`/staff/api/data-requests?q=${encodeURIComponent(q)}`);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().member).toMatchObject({ id: hana.userId, email: hana.email, name: "Hana", status: "not_confirmed" });
    }
    const [fictional] = await sqlRows<{ id: number }>(database.db, sql`select id from users where fictional limit 1`);
    if (fictional) {
      expect((await support.client.get(`/staff/api/data-requests?q=${fictional.id}`)).json().member).toBeNull();
    }
    expect((await support.client.get("/staff/api/data-requests?q=nobody%40example.org")).json().member).toBeNull();
  });

  it("downloads the member's own ZIP for support and admins, audited as member.export; others are refused", async () => {
    const ines = await member({ name: "Ines" });
    await addPhoto(app, ines.profileId, { main: true });
    const own = (await download(ines)).files;
    for (const role of ["support", "admin"] as const) {
      const staff = await staffLogin(app, role);
      const before = await auditRows("member.export", ines.userId);
      const response = await staff.client.get(`/staff/api/data-requests/${ines.userId}/export`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["content-type"]).toBe("application/zip");
      expect(response.headers["content-disposition"]).toContain(`-data-${ines.userId}-`);
      const files = unzipSync(new Uint8Array(response.rawPayload));
      expect(Object.keys(files).sort()).toEqual(Object.keys(own).sort());
      expect(json(files, "account.json")).toEqual(json(own, "account.json"));
      expect(json(files, "profile.json")).toEqual(json(own, "profile.json"));
      expect(await auditRows("member.export", ines.userId)).toBe(before + 1);
    }
    const [row] = await sqlRows<{ after: { files: number } }>(
      database.db,
      sql`select after from staff_audit where action = 'member.export' and member_id = ${ines.userId} order by id desc limit 1`,
    );
    expect(row?.after.files).toBe(Object.keys(own).length);

    for (const role of ["moderator", "operator"] as const) {
      const staff = await staffLogin(app, role);
      const refused = await staff.client.get(`/staff/api/data-requests/${ines.userId}/export`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe("staff_forbidden");
    }
    // A member's session is no staff session: the console is not there.
    expect((await ines.client.get(`/staff/api/data-requests/${ines.userId}/export`)).statusCode).toBe(404);
    expect(await auditRows("member.export", ines.userId)).toBe(2);
    // No such member: 404 and no audit row.
    const support = await staffLogin(app, "support");
    const missing = await support.client.get("/staff/api/data-requests/999999/export");
    expect(missing.statusCode).toBe(404);
    expect(await auditRows("member.export", 999999)).toBe(0);
  });

  it("starts the erasure: the account waits for deletion, its sessions end at once, the member is mailed in their language; audited", async () => {
    const jan = await member({ name: "Jan", gender: "male", locale: "de" });
    expect((await jan.client.put("/api/user.php", { language: "de" })).statusCode).toBe(200);
    const support = await staffLogin(app, "support");
    const operator = await staffLogin(app, "operator");

    const refused = await operator.client.post(`/staff/api/data-requests/${jan.userId}/erasure`, {});
    expect(refused.statusCode).toBe(403);
    expect((await jan.client.get("/api/user.php")).json().user).toMatchObject({ id: jan.userId });

    const started = await support.client.post(`/staff/api/data-requests/${jan.userId}/erasure`, {});
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().member).toMatchObject({
      id: jan.userId,
      status: "pending_deletion",
      deletion_requested_at: expect.any(String),
    });
    // The member's session is gone.
    expect((await jan.client.get("/api/user.php")).json().user).toBeNull();
    const [audit] = await sqlRows<{ before: unknown; after: unknown; staff_id: number }>(
      database.db,
      sql`select before, after, staff_id from staff_audit where action = 'member.erase' and member_id = ${jan.userId}`,
    );
    expect(audit).toEqual({
      before: { status: "not_confirmed" },
      after: { status: "pending_deletion" },
      staff_id: support.staff.id,
    });
    const mails = await sqlRows<{ subject: string }>(
      database.db,
      sql`select subject from mail_outbox where "to" = ${jan.email} and subject like '%gelöscht%'`,
    );
    expect(mails).toHaveLength(1);
    // The existing purge erases it once the 14 days are over.
    await database.db.execute(sql`update users set deletion_requested_at = now() - interval '15 days' where id = ${jan.userId}`);
    await app.services.accounts.purgeExpiredDeletions();
    expect(await sqlCount(database.db, sql`select count(*)::int as n from users where id = ${jan.userId}`)).toBe(0);
  });

  it("writes the erasure and its audit row in one transaction: a failing audit leaves the account as it was", async () => {
    const kim = await member({ name: "Kim" });
    const support = await staffLogin(app, "support");
    await expect(
      app.services.staff.audited(
        { staff: support.staff, address: null },
        // A value JSON cannot hold: the audit row cannot be written.
        () => ({ action: "member.erase", objectType: "member", objectId: kim.userId, memberId: kim.userId, after: { bad: 1n } }),
        (tx) => app.services.accounts.startDeletion(tx, kim.userId),
      ),
    ).rejects.toThrow();
    const [user] = await sqlRows<{ status: string }>(database.db, sql`select status from users where id = ${kim.userId}`);
    expect(user?.status).toBe("not_confirmed");
    expect((await kim.client.get("/api/user.php")).json().user).toMatchObject({ id: kim.userId });
    expect(await auditRows("member.erase", kim.userId)).toBe(0);
  });
});
