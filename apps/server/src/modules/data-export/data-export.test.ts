import { randomUUID } from "node:crypto";
import { paymentCreateResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { addPhoto, block, createMember, sqlRows, type TestMember } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { sendRules } from "../chat/routes.ts";

let database: TestDatabase;
let app: TestApp;
let host: string;

useTestApp({ seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
  host = new URL(app.url).host;
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

/** A payment with a discount code, paid through the sandbox and its webhook. */
async function paidWithDiscount(who: TestMember, code: string): Promise<number> {
  const created = await who.client.post(
    "/api/payment.php",
    { bundle_id: 3, method: "ideal", client_id: randomUUID(), discount_code: code },
    { host },
  );
  expect(created.statusCode, created.body).toBe(200);
  const { payment_id: paymentId } = paymentCreateResponseSchema.parse(created.json());
  const [row] = await sqlRows<{ provider_id: string }>(
    database.db,
    sql`select provider_id from payments where id = ${paymentId}`,
  );
  await app.services.sandbox?.complete(row?.provider_id ?? "", "paid");
  await app.server.inject({
    method: "POST",
    url: "/hooks/payments/sandbox",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: `id=${row?.provider_id}`,
  });
  return paymentId;
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
    expect((await anna.client.put("/api/notifications.php", { enabled: { promotions: false } })).statusCode).toBe(200);
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
    const paymentId = await paidWithDiscount(anna, "SPRING10");

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
      notifications: expect.arrayContaining([{ category: "promotions", enabled: false, reason: "user" }]),
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

    // Nothing of the others': their addresses, their conversation, their photo files, their complaint.
    const text = allText(files);
    for (const other of [ben, cleo, dirk]) expect(text).not.toContain(other.email);
    expect(text).not.toContain("SECRET-BETWEEN-BEN-AND-CLEO");
    expect(text).not.toContain("CLEO-COMPLAINT-TEXT");
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
