import { sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { sqlCount, sqlRows } from "../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../test/harness.ts";
import { DEMO_ACCOUNTS, seed } from "./seed.ts";

let database: TestDatabase;
let app: TestApp;
const PROFILES = 300;

useTestApp({ listen: false, seed: { profiles: PROFILES }, timeout: 600_000 }, (env) => {
  ({ app, database } = env);
});

const count = (query: ReturnType<typeof sql>) => sqlCount(database.db, query);

describe("seed", () => {
  it("creates at least 300 fictional demo profiles across countries, genders, sexualities and ages", async () => {
    expect(await count(sql`select count(*)::int as n from profiles where fictional`)).toBe(PROFILES);
    expect(await count(sql`select count(distinct country)::int as n from profiles where fictional`)).toBe(15);
    expect(await count(sql`select count(distinct gender)::int as n from profiles where fictional`)).toBe(2);
    expect(await count(sql`select count(distinct sexuality)::int as n from profiles where fictional`)).toBe(4);
    expect(
      await count(
        sql`select (max(date_part('year', age(birth_date))) - min(date_part('year', age(birth_date))))::int as n from profiles where fictional`,
      ),
    ).toBeGreaterThan(30);
    expect(await count(sql`select min(date_part('year', age(birth_date)))::int as n from profiles`)).toBeGreaterThanOrEqual(18);
  });

  it("gives every demo profile a generated main photo stored on disk", async () => {
    expect(
      await count(
        sql`select count(*)::int as n from profiles p where fictional and not exists (select 1 from photos f where f.profile_id = p.id and f.is_main)`,
      ),
    ).toBe(0);
    const [profile] = await app.services.search.teaser({ limit: 1, countries: ["NL", "DE", "FR", "GB"] });
    const url = profile?.main_image?.thumb_url ?? "";
    const response = await app.server.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/jpeg");
    const meta = await sharp(response.rawPayload).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 320, height: 400 });
    expect(meta.exif).toBeUndefined();
  });

  it("creates the two demo accounts with working, hashed passwords", async () => {
    for (const account of Object.values(DEMO_ACCOUNTS)) {
      const user = await app.services.accounts.findByEmail(account.email);
      // Their balances come with their life (demo-life.test.ts): Alex's from his paid order.
      expect((await app.services.credits.account(database.db, user?.id ?? 0)).paid).toBe(account.paid);
      expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await app.services.accounts.verifyPassword(user?.passwordHash ?? "", account.password)).toBe(true);
      expect(await app.services.accounts.verifyPassword(user?.passwordHash ?? "", "wrong")).toBe(false);
    }
  });

  it("is idempotent: a second run adds nothing", async () => {
    const before = await count(sql`select count(*)::int as n from profiles`);
    const result = await seed(app.services, { profiles: PROFILES });
    expect(result.created).toBe(false);
    expect(await count(sql`select count(*)::int as n from profiles`)).toBe(before);
    expect(await count(sql`select count(*)::int as n from sites`)).toBe(1);
  });
});

/** The main photo file of one NL demo member of the teaser, and that member's ids. */
async function pickMember(offset: number) {
  const [row] = await sqlRows<{ profile_id: number; user_id: number; filename: string; thumb: string }>(
    database.db,
    sql`select p.id as profile_id, p.user_id, f.filename, f.thumb_filename as thumb from profiles p
        join photos f on f.profile_id = p.id and f.is_main where p.fictional and p.country = 'NL'
        order by p.id limit 1 offset ${offset}`,
  );
  if (!row) throw new Error("no member");
  return row;
}

const teaserIds = async () => (await app.services.search.teaser({ limit: 100, countries: ["NL"] })).map((p) => p.id);

describe("photo CDN and teaser visibility", () => {
  it("serves a public main image, and refuses unknown keys and malformed paths", async () => {
    const member = await pickMember(0);
    expect((await app.server.inject({ url: `/cdn/${member.thumb}` })).statusCode).toBe(200);
    expect((await app.server.inject({ url: "/cdn/photos/0123456789abcdef0123456789abcdef.jpg" })).statusCode).toBe(404);
    expect((await app.server.inject({ url: "/cdn/photos/..%2F..%2Fetc%2Fpasswd" })).statusCode).toBe(404);
  });

  it("refuses a main photo once it is private, and drops the member from the teaser", async () => {
    const member = await pickMember(1);
    expect(await teaserIds()).toContain(member.profile_id);
    await database.db.execute(sql`update photos set private = true where filename = ${member.filename}`);
    expect((await app.server.inject({ url: `/cdn/${member.filename}` })).statusCode).toBe(404);
    expect((await app.server.inject({ url: `/cdn/${member.thumb}` })).statusCode).toBe(404);
    expect(await teaserIds()).not.toContain(member.profile_id);
  });

  it("hides invisible members and members pending deletion from the teaser and the CDN", async () => {
    const invisible = await pickMember(2);
    const leaving = await pickMember(3);
    const shown = await teaserIds();
    expect(shown).toEqual(expect.arrayContaining([invisible.profile_id, leaving.profile_id]));
    await database.db.execute(sql`update users set invisible = true where id = ${invisible.user_id}`);
    await database.db.execute(sql`update users set status = 'pending_deletion' where id = ${leaving.user_id}`);
    const after = await teaserIds();
    expect(after).not.toContain(invisible.profile_id);
    expect(after).not.toContain(leaving.profile_id);
    expect((await app.server.inject({ url: `/cdn/${invisible.thumb}` })).statusCode).toBe(404);
    expect((await app.server.inject({ url: `/cdn/${leaving.thumb}` })).statusCode).toBe(404);
  });

  it("lists only members of the asked countries with an active main image, never the demo accounts without photo", async () => {
    const teaser = await app.services.search.teaser({ limit: 50, countries: ["NL", "BE"] });
    expect(teaser.length).toBeGreaterThan(0);
    expect(teaser.every((p) => ["NL", "BE"].includes(p.country) && p.main_image?.status === "active")).toBe(true);
    expect(teaser.map((p) => p.name)).not.toContain(DEMO_ACCOUNTS.free.name);
  });
});
