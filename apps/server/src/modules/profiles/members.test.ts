import { memberResponseSchema, memberSearchResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { addPhoto, createMember, type MemberOptions, sqlRows } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";

let database: TestDatabase;
let app: TestApp;

useTestApp({ listen: false, seed: { profiles: 150 }, timeout: 300_000 }, (env) => {
  ({ app, database } = env);
});

/** Jo, a man born 1988-02-02 seeking women, active unless asked otherwise. */
const member = (options: MemberOptions = {}) =>
  createMember(app, { name: "Jo", gender: "male", dateOfBirth: "1988-02-02", activate: true, ...options });

const search = async (client: TestClient, query: string) => {
  const response = await client.get(`/api/members.php${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return memberSearchResponseSchema.parse(response.json());
};

describe("member view and photo access", () => {
  /** A demo member with three photos: main (public), a second (public), a third (private). */
  async function demoWithPhotos() {
    const [row] = await sqlRows<{ id: number }>(
      database.db,
      sql`select p.id from profiles p where p.fictional and (select count(*) from photos f where f.profile_id = p.id) = 3 limit 1`,
    );
    return row?.id ?? 0;
  }

  it("hides no field by default but never sends the birth date, coordinates or e-mail", async () => {
    const id = await demoWithPhotos();
    const response = await new TestClient(app.server).get(`/api/member.php?id=${id}`);
    expect(response.statusCode).toBe(200);
    const view = memberResponseSchema.parse(response.json());
    expect(view.profile.id).toBe(id);
    expect(view.related.length).toBeGreaterThan(0);
    expect(view.related.some((r) => r.id === id)).toBe(false);
    expect(response.body).not.toMatch(/birth|latitude|longitude|"lat"|"lon"|email|password/i);
  });

  it("gives visitors and free members the main photo and only blurred copies of the rest; premium members everything", async () => {
    const id = await demoWithPhotos();
    const visitor = new TestClient(app.server);
    const free = (await member()).client;
    const premium = (await member({ paid: true })).client;

    const asVisitor = memberResponseSchema.parse((await visitor.get(`/api/member.php?id=${id}`)).json()).profile;
    expect(asVisitor.photo_lock).toBe("login");
    expect(asVisitor.locked_photos).toBe(2);
    const asFree = memberResponseSchema.parse((await free.get(`/api/member.php?id=${id}`)).json()).profile;
    expect(asFree.photo_lock).toBe("premium");
    const asPremium = memberResponseSchema.parse((await premium.get(`/api/member.php?id=${id}`)).json()).profile;
    expect(asPremium.photo_lock).toBeNull();
    expect(asPremium.photos.every((p) => !p.locked && p.url)).toBe(true);

    const real = asPremium.photos;
    const locked = asFree.photos.filter((p) => p.locked);
    expect(locked.every((p) => p.url === null && p.thumb_url.endsWith("-b.jpg"))).toBe(true);
    for (const client of [visitor, free]) {
      // Every real URL of a locked photo is refused, whichever variant is tried.
      for (const photo of real.filter((p) => !asFree.photos.find((f) => f.id === p.id && !f.locked))) {
        expect((await client.get(photo.url ?? "")).statusCode).toBe(404);
        expect((await client.get(photo.thumb_url)).statusCode).toBe(404);
      }
      for (const photo of locked) {
        const blurred = await client.get(photo.thumb_url);
        expect(blurred.statusCode).toBe(200);
        const realThumb = await premium.get(real.find((p) => p.id === photo.id)?.thumb_url ?? "");
        expect(realThumb.statusCode).toBe(200);
        expect(Buffer.compare(blurred.rawPayload, realThumb.rawPayload)).not.toBe(0);
        // Blurred: far less detail than the real thumbnail (the image's standard deviation drops).
        const stats = async (bytes: Buffer) => (await sharp(bytes).stats()).channels[0]?.stdev ?? 0;
        expect(await stats(blurred.rawPayload)).toBeLessThan(await stats(realThumb.rawPayload));
      }
    }
    const main = asVisitor.main_image;
    expect(main).not.toBeNull();
    expect((await visitor.get(main?.url ?? "")).statusCode).toBe(200);
  });

  it("answers hidden and unknown members with 404 and bad ids with 422", async () => {
    const hidden = await member();
    await database.db.execute(sql`update users set invisible = true where id = ${hidden.userId}`);
    const client = new TestClient(app.server);
    expect((await client.get(`/api/member.php?id=${hidden.profileId}`)).statusCode).toBe(404);
    expect((await client.get("/api/member.php?id=99999999")).statusCode).toBe(404);
    expect((await client.get("/api/member.php?id=abc")).statusCode).toBe(422);
    // Ids are bounded to the integer columns: the largest is simply unknown, one more is refused.
    expect((await client.get("/api/member.php?id=2147483647")).statusCode).toBe(404);
    expect((await client.get("/api/member.php?id=2147483648")).statusCode).toBe(422);
    expect((await client.delete("/api/photo.php?id=2147483648")).statusCode).toBe(403);
  });

  it("follows the site's visible_profile_fields", async () => {
    const id = await demoWithPhotos();
    await database.db.execute(
      sql`update sites set settings = ${JSON.stringify({ visible_profile_fields: ["age", "city"] })}::jsonb where is_default`,
    );
    app.services.site.invalidate();
    try {
      const view = memberResponseSchema.parse((await new TestClient(app.server).get(`/api/member.php?id=${id}`)).json()).profile;
      expect(view.city).not.toBeNull();
      expect(view.hair_color).toBeNull();
      expect(view.about).toBe("");
      expect(view.interests).toEqual([]);
      // Without "city" the cards hide the city and the distance too.
      await database.db.execute(
        sql`update sites set settings = ${JSON.stringify({ visible_profile_fields: ["age"] })}::jsonb where is_default`,
      );
      app.services.site.invalidate();
      const asker = await member();
      await asker.client.put("/api/profile.php", { country: "NL", region: "NL-NH", city: "Amsterdam" });
      const cards = (await search(asker.client, "?country=NL")).profiles;
      expect(cards.length).toBeGreaterThan(0);
      expect(cards.every((card) => card.city === null && card.distance === null)).toBe(true);
    } finally {
      await database.db.execute(sql`update sites set settings = '{}'::jsonb where is_default`);
      app.services.site.invalidate();
    }
  });
});

describe("blocking (spec §6)", () => {
  const photoUrlsOf = async (client: TestClient, id: number) => {
    const view = memberResponseSchema.parse((await client.get(`/api/member.php?id=${id}`)).json()).profile;
    return view.photos.flatMap((p) => [p.thumb_url, ...(p.url ? [p.url] : [])]);
  };

  it("hides the blocker's profile and photos from the blocked member, and each from the other's search", async () => {
    const blocker = await member({ paid: true });
    const blocked = await member({ paid: true });
    // The blocker has three photos: main, public, private.
    await addPhoto(app, blocker.profileId, { main: true });
    await addPhoto(app, blocker.profileId);
    await addPhoto(app, blocker.profileId, { private: true });
    // The blocker is the twin (country, birth date) of a demo man, so he is first among that one's related members.
    const [twin] = await sqlRows<{ id: number; country: string; birth_date: string }>(
      database.db,
      sql`select id, country, birth_date::text from profiles where fictional and gender = 'male'
          and exists (select 1 from photos f where f.profile_id = profiles.id and f.is_main) limit 1`,
    );
    await database.db.execute(
      sql`update profiles set country = ${twin?.country}, birth_date = ${twin?.birth_date}::date where id = ${blocker.profileId}`,
    );
    const relatedOfTwin = async () =>
      memberResponseSchema.parse((await blocked.client.get(`/api/member.php?id=${twin?.id}`)).json()).related.map((r) => r.id);
    expect(await relatedOfTwin()).toContain(blocker.profileId);
    const urls = await photoUrlsOf(blocked.client, blocker.profileId);
    expect(urls.length).toBe(6);
    const before = {
      blocked: (await search(blocked.client, "?gender=male")).numResults,
      blocker: (await search(blocker.client, "?gender=male")).numResults,
    };
    expect((await search(blocked.client, "?gender=male")).profiles.map((p) => p.id)).toContain(blocker.profileId);

    for (let i = 0; i < 2; i++) {
      const response = await blocker.client.post("/api/block.php", { id: blocked.profileId });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ blocked: true });
    }

    // The blocked member: the spec's message, no photo in any variant, gone from the search.
    const denied = await blocked.client.get(`/api/member.php?id=${blocker.profileId}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({
      error: "blocked_by",
      message: "You're blocked by Jo. You do not have access to this page.",
      params: { name: "Jo" },
    });
    const inDutch = (await blocked.client.get(`/api/member.php?id=${blocker.profileId}`, { "accept-language": "nl" })).json();
    expect(inDutch.message).toContain("Jo");
    expect(inDutch.message).not.toBe(denied.json().message);
    for (const url of urls) expect((await blocked.client.get(url)).statusCode, url).toBe(404);
    expect((await search(blocked.client, "?gender=male")).numResults).toBe(before.blocked - 1);
    expect((await search(blocked.client, "?gender=male")).profiles.map((p) => p.id)).not.toContain(blocker.profileId);
    expect(await relatedOfTwin()).not.toContain(blocker.profileId);

    // The blocker still sees the blocked member's page (to unblock) but no longer finds them.
    const view = memberResponseSchema.parse((await blocker.client.get(`/api/member.php?id=${blocked.profileId}`)).json());
    expect(view.blocked).toBe(true);
    expect((await search(blocker.client, "?gender=male")).numResults).toBe(before.blocker - 1);
    expect((await blocker.client.get("/api/blocks.php")).json()).toEqual({
      members: [{ id: blocked.profileId, name: "Jo", blocked_at: expect.any(String) }],
    });
    // Others are not affected.
    expect((await new TestClient(app.server).get(`/api/member.php?id=${blocker.profileId}`)).statusCode).toBe(200);

    // Unblocking gives everything back.
    const unblocked = await blocker.client.delete(`/api/block.php?id=${blocked.profileId}`);
    expect(unblocked.json()).toEqual({ blocked: false });
    expect((await blocked.client.get(`/api/member.php?id=${blocker.profileId}`)).statusCode).toBe(200);
    for (const url of urls) expect((await blocked.client.get(url)).statusCode, url).toBe(200);
    expect((await blocker.client.get("/api/blocks.php")).json()).toEqual({ members: [] });
    const again = memberResponseSchema.parse((await blocker.client.get(`/api/member.php?id=${blocked.profileId}`)).json());
    expect(again.blocked).toBe(false);
  });

  it("refuses blocking oneself, unknown members, bad input and visitors, storing nothing", async () => {
    const self = await member();
    const own = await self.client.post("/api/block.php", { id: self.profileId });
    expect(own.statusCode).toBe(422);
    expect(own.json().error).toBe("cannot_block_self");
    expect((await self.client.post("/api/block.php", { id: 99_999_999 })).statusCode).toBe(404);
    // A hidden member cannot be blocked (nor learnt about through the list of blocked members).
    const hidden = await member();
    await database.db.execute(sql`update users set invisible = true where id = ${hidden.userId}`);
    expect((await self.client.post("/api/block.php", { id: hidden.profileId })).statusCode).toBe(404);
    for (const body of [{}, { id: "x" }, { id: -1 }, { id: 1, extra: true }]) {
      const response = await self.client.post("/api/block.php", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().error).toBe("validation_failed");
    }
    expect((await self.client.delete("/api/block.php?id=abc")).statusCode).toBe(422);
    const visitor = await new TestClient(app.server).post("/api/block.php", { id: self.profileId });
    expect(visitor.statusCode).toBe(403);
    expect(visitor.json().error).toBe("authentication_required");
    expect((await self.client.get("/api/blocks.php")).json()).toEqual({ members: [] });
  });
});
