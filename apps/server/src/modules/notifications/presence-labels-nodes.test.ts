import { memberResponseSchema, memberSearchResponseSchema, userResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { createMember, sqlCount, sqlRows, type TestMember } from "../../test/factories.ts";
import type { TestApp } from "../../test/harness.ts";
import { connectSocket, useTwoNodes } from "../../test/sockets.ts";
import { onlineNowCondition } from "./presence-labels.ts";

let nodeA: TestApp;
let nodeB: TestApp;

useTwoNodes({ seed: { profiles: 0 }, timeout: 120_000 }, (nodes) => {
  ({ nodeA, nodeB } = nodes);
});

const db = () => nodeA.services.database.db;

/** `viewer`'s label of `other`, read on node B: the profile page's and the search card's. */
async function labelsOf(viewer: TestMember, other: TestMember) {
  const page = await viewer.client.get(`/api/member.php?id=${other.profileId}`);
  expect(page.statusCode, page.body).toBe(200);
  const search = await viewer.client.get("/api/members.php?gender=female");
  expect(search.statusCode, search.body).toBe(200);
  const card = memberSearchResponseSchema.parse(search.json()).profiles.find((p) => p.id === other.profileId);
  expect(card).toBeDefined();
  const profile = memberResponseSchema.parse(page.json()).presence ?? null;
  expect(card?.presence ?? null).toBe(profile);
  return profile;
}

async function until(check: () => Promise<boolean>) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("presence labels across two server nodes (issue #29)", () => {
  it("show online from a socket on the other node, then active today / this week, never a time, and hiding is mutual", async () => {
    const ann = await createMember(nodeA, { activate: true, gender: "female" });
    const ben = await createMember(nodeB, { activate: true, gender: "male" });
    const looking = () =>
      sqlCount(db(), sql`select count(*)::int as n from member_presence where user_id = ${ann.userId} and looking_until > now()`);
    // Never seen: no label.
    expect(await labelsOf(ben, ann)).toBeNull();

    const socket = await connectSocket(nodeA, { cookie: ann.client.cookieHeader() });
    await until(async () => (await looking()) === 1);
    expect(await labelsOf(ben, ann)).toBe("online");

    // Ann hides her presence: Ben sees none; she shows it again: online.
    expect((await ann.client.put("/api/presence-privacy.php", { hide_presence: true })).statusCode).toBe(200);
    expect(await labelsOf(ben, ann)).toBeNull();
    expect((await ann.client.put("/api/presence-privacy.php", { hide_presence: false })).statusCode).toBe(200);
    // Ben hides his: he sees no one's either.
    const hidden = await ben.client.put("/api/presence-privacy.php", { hide_presence: true });
    expect(userResponseSchema.parse(hidden.json()).user?.hide_presence).toBe(true);
    expect(await labelsOf(ben, ann)).toBeNull();
    await ben.client.put("/api/presence-privacy.php", { hide_presence: false });
    // An invisible asker sees none.
    await ben.client.put("/api/invisible.php", { invisible: true });
    expect(await labelsOf(ben, ann)).toBeNull();
    await ben.client.put("/api/invisible.php", { invisible: false });
    expect(await labelsOf(ben, ann)).toBe("online");

    // Her socket closes: away, and active today (her last sign was just now).
    socket.socket.close();
    await until(async () => (await looking()) === 0);
    expect(await labelsOf(ben, ann)).toBe("today");
    await db().execute(sql`update member_presence set seen_at = now() - interval '3 days' where user_id = ${ann.userId}`);
    expect(await labelsOf(ben, ann)).toBe("week");
    await db().execute(sql`update member_presence set seen_at = now() - interval '8 days' where user_id = ${ann.userId}`);
    expect(await labelsOf(ben, ann)).toBeNull();

    // Visitors (logged out) see no labels.
    const visitor = new TestClient(nodeB.server);
    const page = await visitor.get(`/api/member.php?id=${ann.profileId}`);
    expect(memberResponseSchema.parse(page.json()).presence ?? null).toBeNull();
  });

  it("the online filter's condition finds only members looking now who let others see it", async () => {
    const cara = await createMember(nodeA, { activate: true, gender: "female" });
    const socket = await connectSocket(nodeB, { cookie: cara.client.cookieHeader() });
    const online = async () =>
      (await sqlRows<{ online: boolean }>(db(), sql`select ${onlineNowCondition(sql`${cara.userId}::int`)} as "online"`))[0]
        ?.online;
    await until(async () => (await online()) === true);
    await cara.client.put("/api/presence-privacy.php", { hide_presence: true });
    expect(await online()).toBe(false);
    await cara.client.put("/api/presence-privacy.php", { hide_presence: false });
    await cara.client.put("/api/invisible.php", { invisible: true });
    expect(await online()).toBe(false);
    socket.socket.close();
  });
});
