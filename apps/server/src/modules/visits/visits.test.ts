import { badgesResponseSchema, VISIT_RETENTION_DAYS, VISITORS_PAGE_SIZE, visitorsResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TestClient } from "../../test/client.ts";
import { block, createMember, type MemberOptions, sqlCount, type TestMember } from "../../test/factories.ts";
import { type TestApp, useTestApp } from "../../test/harness.ts";

let app: TestApp;

useTestApp({ listen: false, seed: { profiles: 0 }, timeout: 120_000 }, (env) => {
  ({ app } = env);
});

const db = () => app.services.database.db;
const member = (options: MemberOptions = {}) => createMember(app, { activate: true, ...options });

async function open(visitor: TestMember, visited: TestMember, status = 200) {
  const response = await visitor.client.get(`/api/member.php?id=${visited.profileId}`);
  expect(response.statusCode, response.body).toBe(status);
}
async function visitors(client: TestClient, query = "") {
  const response = await client.get(`/api/visitors.php${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, ...visitorsResponseSchema.parse(response.json()) };
}
const visitRows = (a: TestMember, b: TestMember) =>
  sqlCount(
    db(),
    sql`select count(*)::int as n from profile_visits where (visited_id = ${a.profileId} and visitor_id = ${b.profileId})
      or (visited_id = ${b.profileId} and visitor_id = ${a.profileId})`,
  );

describe("profile visitors (issue #29)", () => {
  it("shows a premium member who opened their profile, newest first, each visitor once, and not their own visits", async () => {
    const owner = await member({ gender: "female", paid: true });
    const first = await member({ gender: "male", name: "Firstvisitor" });
    const second = await member({ gender: "male", name: "Secondvisitor" });
    await open(first, owner);
    await open(second, owner);
    await open(first, owner); // within the hour: counts once, its time not renewed
    await open(owner, owner);
    const answer = await visitors(owner.client);
    expect(answer.locked).toBe(false);
    expect(answer.total).toBe(2);
    expect(answer.placeholders).toBe(0);
    expect(answer.visitors.map((v) => v.id)).toEqual([second.profileId, first.profileId]);
    expect(answer.visitors[0]?.name).toBe("Secondvisitor");
    expect(Date.parse(answer.visitors[0]?.visited_at ?? "")).toBeGreaterThan(Date.now() - 60_000);
    // The owner's own visit left nothing.
    expect(await sqlCount(db(), sql`select count(*)::int as n from profile_visits where visitor_id = ${owner.profileId}`)).toBe(
      0,
    );
  });

  it("gives a free member the count and placeholders but no identity (the gate is the server's)", async () => {
    const owner = await member({ gender: "female" });
    const visitor = await member({ gender: "male", name: "Hiddenname" });
    await open(visitor, owner);
    const answer = await visitors(owner.client);
    expect(answer).toMatchObject({ total: 1, locked: true, visitors: [], placeholders: 1, page: 1, pages: 1 });
    expect(answer.body).not.toContain("Hiddenname");
    expect(answer.body).not.toContain(`"id"`);
    // Once premium, the same visit shows its profile.
    await app.services.credits.grantPremium(db(), owner.userId);
    const paid = await visitors(owner.client);
    expect(paid.locked).toBe(false);
    expect(paid.visitors.map((v) => v.name)).toEqual(["Hiddenname"]);
  });

  it("records no visit of an invisible member, and hides earlier visits while they are invisible", async () => {
    const owner = await member({ gender: "female", paid: true });
    const shy = await member({ gender: "male" });
    expect((await shy.client.put("/api/invisible.php", { invisible: true })).statusCode).toBe(200);
    await open(shy, owner);
    expect(await visitRows(owner, shy)).toBe(0);
    expect((await visitors(owner.client)).total).toBe(0);

    const later = await member({ gender: "male" });
    await open(later, owner);
    expect((await later.client.put("/api/invisible.php", { invisible: true })).statusCode).toBe(200);
    expect((await visitors(owner.client)).total).toBe(0);
  });

  it("leaves no visit across a block, and a block deletes the pair's visits both ways", async () => {
    const owner = await member({ gender: "female", paid: true });
    const visitor = await member({ gender: "male", paid: true });
    await open(visitor, owner);
    await open(owner, visitor);
    expect(await visitRows(owner, visitor)).toBe(2);
    await block(app, owner, visitor);
    expect(await visitRows(owner, visitor)).toBe(0);
    // The blocked member cannot open the blocker's profile; the blocker may (to unblock) but leaves no visit.
    await open(visitor, owner, 403);
    await open(owner, visitor);
    expect(await visitRows(owner, visitor)).toBe(0);
    expect((await visitors(owner.client)).total).toBe(0);
    expect((await visitors(visitor.client)).total).toBe(0);
  });

  it(`keeps visits ${VISIT_RETENTION_DAYS} days: older ones are not shown and the daily purge deletes them`, async () => {
    const owner = await member({ gender: "female", paid: true });
    const old = await member({ gender: "male" });
    const recent = await member({ gender: "male" });
    await open(old, owner);
    await open(recent, owner);
    await db().execute(
      sql`update profile_visits set visited_at = now() - make_interval(days => ${VISIT_RETENTION_DAYS + 1})
        where visited_id = ${owner.profileId} and visitor_id = ${old.profileId}`,
    );
    const answer = await visitors(owner.client);
    expect(answer.visitors.map((v) => v.id)).toEqual([recent.profileId]);
    expect(await app.services.visits.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await visitRows(owner, old)).toBe(0);
    expect(await visitRows(owner, recent)).toBe(1);
  });

  it(`pages the visitors ${VISITORS_PAGE_SIZE} at a time, and a free member's placeholders follow the page`, async () => {
    const owner = await member({ gender: "female" });
    const others = await Promise.all(Array.from({ length: VISITORS_PAGE_SIZE + 2 }, () => member({ gender: "male" })));
    await db().execute(
      sql`insert into profile_visits (visited_id, visitor_id) select ${owner.profileId}, unnest(${sql.param(others.map((o) => o.profileId))}::int[])`,
    );
    expect(await visitors(owner.client)).toMatchObject({
      total: VISITORS_PAGE_SIZE + 2,
      placeholders: VISITORS_PAGE_SIZE,
      pages: 2,
    });
    expect(await visitors(owner.client, "?page=2")).toMatchObject({ placeholders: 2, page: 2 });
    await app.services.credits.grantPremium(db(), owner.userId);
    expect((await visitors(owner.client, "?page=2")).visitors).toHaveLength(2);
  });

  it("counts new visitors in the badges until the member opens /visitors, free members too", async () => {
    const owner = await member({ gender: "female" });
    const [first, second, hidden] = await Promise.all([
      member({ gender: "male" }),
      member({ gender: "male" }),
      member({ gender: "male" }),
    ]);
    const newVisitors = async () => badgesResponseSchema.parse((await owner.client.get("/api/badges.php")).json()).new_visitors;
    expect(await newVisitors()).toBe(0);
    await open(first, owner);
    await open(second, owner);
    await open(hidden, owner);
    await db().execute(sql`update users set invisible = true where id = ${hidden.userId}`);
    expect(await newVisitors()).toBe(2);
    await visitors(owner.client);
    expect(await newVisitors()).toBe(0);
    // A later visit is new again (one renewed after RENEW_AFTER_MS, as a first one).
    const third = await member({ gender: "male" });
    await open(third, owner);
    expect(await newVisitors()).toBe(1);
  });
});
