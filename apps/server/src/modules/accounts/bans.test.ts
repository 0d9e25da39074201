import { randomUUID } from "node:crypto";
import {
  chatsResponseSchema,
  likesResponseSchema,
  messageResponseSchema,
  SESSION_COOKIE,
  userResponseSchema,
  WS_CLOSE,
} from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { createMember, type MemberOptions, sqlRows, type TestMember } from "../../test/factories.ts";
import type { TestApp, TestDatabase } from "../../test/harness.ts";
import { searchAs } from "../../test/members.ts";
import { connectSocket, useTwoNodes } from "../../test/sockets.ts";

let database: TestDatabase;
let nodeA: TestApp;
let nodeB: TestApp;
useTwoNodes({ seed: { profiles: 0 } }, (nodes) => {
  ({ database, nodeA, nodeB } = nodes);
});

const PASSWORD = "correct horse battery staple";
const member = (options: MemberOptions = {}) => createMember(nodeA, { activate: true, credits: 100, ...options });

/** A ban as the staff console makes it: in a transaction of its own (staff.audited's). */
async function ban(target: TestMember, endsAt: Date | null = null, reason: "spam" | "harassment" = "spam") {
  const result = await database.db.transaction((tx) =>
    nodeA.services.bans.ban(tx, { userId: target.userId, reason, endsAt, staffId: null }),
  );
  nodeA.services.bans.announce(target.userId);
  return result;
}
const unban = (target: TestMember) =>
  database.db.transaction((tx) => nodeA.services.bans.unban(tx, { userId: target.userId, staffId: null }));

async function sendMessage(from: TestMember, to: TestMember) {
  const response = await from.client.post("/api/message.php", {
    client_id: randomUUID(),
    text: "Hello",
    profile_id: to.profileId,
  });
  expect(response.statusCode, response.body).toBe(200);
  return messageResponseSchema.parse(response.json());
}
async function chatPartners(m: TestMember) {
  const response = await m.client.get("/api/chats.php");
  expect(response.statusCode, response.body).toBe(200);
  return chatsResponseSchema.parse(response.json()).chats.map((c) => c.profile.id);
}
async function likedBy(m: TestMember) {
  const response = await m.client.get("/api/likes.php?type=received");
  expect(response.statusCode, response.body).toBe(200);
  return likesResponseSchema.parse(response.json()).profiles.map((p) => p.id);
}
const found = async (viewer: TestMember) => (await searchAs(viewer.client, "?gender=male")).profiles.map((p) => p.id);
const login = (client: TestClient, email: string) => client.post("/api/user.php", { email, password: PASSWORD });

/** Sets the member's password to PASSWORD (signup's is the factory's own). */
async function knownPassword(m: TestMember) {
  const hash = await nodeA.services.accounts.hashPassword(PASSWORD);
  await database.db.execute(sql`update users set password_hash = ${hash} where id = ${m.userId}`);
}

describe("a ban", () => {
  it("ends the member's sessions at once: the old cookie is refused as banned and an open socket on another node closes", async () => {
    const banned = await member({ gender: "male" });
    const onB = await connectSocket(nodeB, { cookie: banned.client.cookieHeader() });
    await onB.next((f) => f.type === "hello" && f.user_id === banned.userId);
    const closed = new Promise<number>((resolve) => onB.socket.once("close", (code) => resolve(code)));

    await ban(banned);

    expect(await closed).toBe(WS_CLOSE.banned);
    const call = await banned.client.get("/api/chats.php");
    expect(call.statusCode).toBe(403);
    expect(call.json().error).toBe("account_banned");
    // The user call says so too, and keeps the cookie (the notice /pages/ban reads).
    const user = await banned.client.get("/api/user.php");
    expect(user.statusCode).toBe(403);
    expect(user.json().error).toBe("account_banned");
    expect(banned.client.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(await nodeB.services.bans.notice(banned.client.cookies.get(SESSION_COOKIE))).toEqual({
      reason: "spam",
      ends_at: null,
    });
    // Nor can a socket open with it.
    const again = await connectSocket(nodeB, { cookie: banned.client.cookieHeader() });
    expect(
      (await again.next((f) => f.type === "hello")).type === "hello" && (await again.next((f) => f.type === "hello")),
    ).toMatchObject({
      user_id: null,
    });
    again.socket.close();
  });

  it("takes the profile out of search, likes and chats for others at once, and an unban brings it back", async () => {
    const viewer = await member({ gender: "female" });
    const banned = await member({ gender: "male" });
    await sendMessage(banned, viewer);
    expect((await banned.client.post("/api/like.php", { id: viewer.profileId })).statusCode).toBe(200);
    expect(await found(viewer)).toContain(banned.profileId);
    expect(await likedBy(viewer)).toContain(banned.profileId);
    expect(await chatPartners(viewer)).toContain(banned.profileId);

    await ban(banned, new Date(Date.now() + 86_400_000), "harassment");

    expect(await found(viewer)).not.toContain(banned.profileId);
    expect(await likedBy(viewer)).not.toContain(banned.profileId);
    expect(await chatPartners(viewer)).not.toContain(banned.profileId);
    expect((await viewer.client.get(`/api/member.php?id=${banned.profileId}`)).statusCode).toBe(404);
    expect(await nodeA.services.visibility.canContact(viewer.profileId, banned.profileId)).toBe(false);
    const reply = await viewer.client.post("/api/message.php", {
      client_id: randomUUID(),
      text: "Hi",
      profile_id: banned.profileId,
    });
    expect(reply.statusCode).not.toBe(200);

    await unban(banned);

    expect(await found(viewer)).toContain(banned.profileId);
    expect(await likedBy(viewer)).toContain(banned.profileId);
    expect(await chatPartners(viewer)).toContain(banned.profileId);
    expect(await nodeA.services.visibility.canContact(viewer.profileId, banned.profileId)).toBe(true);
    await expect(unban(banned)).rejects.toMatchObject({ code: "not_banned" });
  });

  it("refuses the login with account_banned and leaves the browser the ban's notice; after an unban the login works", async () => {
    const banned = await member({ gender: "male" });
    await knownPassword(banned);
    const ends = new Date(Date.now() + 7 * 86_400_000);
    await ban(banned, ends);

    const browser = new TestClient(nodeA.server);
    const refused = await login(browser, banned.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("account_banned");
    expect(await nodeA.services.bans.notice(browser.cookies.get(SESSION_COOKIE))).toEqual({
      reason: "spam",
      ends_at: ends.toISOString(),
    });
    // The notice logs nobody in.
    expect((await browser.get("/api/chats.php")).json().error).toBe("account_banned");

    await unban(banned);
    const fresh = new TestClient(nodeA.server);
    const ok = await login(fresh, banned.email);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await fresh.get("/api/chats.php")).statusCode).toBe(200);
    // The lifted ban's notice is gone: the old browser is simply logged out.
    expect(await nodeA.services.bans.notice(browser.cookies.get(SESSION_COOKIE))).toBeNull();
    const user = await browser.get("/api/user.php");
    expect(userResponseSchema.parse(user.json()).user).toBeNull();
  });

  it("ends by itself at its end: the profile shows and the login works again, and the job clears the mark", async () => {
    const viewer = await member({ gender: "female" });
    const banned = await member({ gender: "male" });
    await knownPassword(banned);
    await ban(banned, new Date(Date.now() + 60_000));
    expect(await found(viewer)).not.toContain(banned.profileId);
    // Time passes: the end is now behind us.
    await database.db.execute(sql`update member_bans set ends_at = now() - interval '1 second' where user_id = ${banned.userId}`);
    await database.db.execute(sql`update users set banned_until = now() - interval '1 second' where id = ${banned.userId}`);

    expect(await found(viewer)).toContain(banned.profileId);
    expect((await login(new TestClient(nodeA.server), banned.email)).statusCode).toBe(200);
    expect(await nodeA.services.bans.current(banned.userId)).toBeNull();
    expect(await nodeA.services.bans.clearEnded()).toBeGreaterThanOrEqual(1);
    const [row] = await sqlRows<{ banned_until: string | null }>(
      database.db,
      sql`select banned_until from users where id = ${banned.userId}`,
    );
    expect(row?.banned_until).toBeNull();
  });

  it("refuses an end in the past and leaves everything as it was", async () => {
    const target = await member({ gender: "male" });
    await expect(ban(target, new Date(Date.now() - 1000))).rejects.toMatchObject({ code: "ban_end_in_past" });
    expect(await nodeA.services.bans.current(target.userId)).toBeNull();
    expect((await target.client.get("/api/chats.php")).statusCode).toBe(200);
  });

  it("replaces a ban in force with a new one (one in force at a time, the history kept)", async () => {
    const target = await member({ gender: "male" });
    await ban(target, new Date(Date.now() + 60_000));
    const second = await ban(target, null, "harassment");
    expect(second.replaced?.endsAt).not.toBeNull();
    expect(await nodeA.services.bans.current(target.userId)).toMatchObject({ reason: "harassment", endsAt: null });
    const history = await nodeA.services.bans.history(target.userId);
    expect(history).toHaveLength(2);
    expect(history[1]?.liftedAt).not.toBeNull();
  });
});
