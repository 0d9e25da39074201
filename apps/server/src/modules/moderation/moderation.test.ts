import { memberResponseSchema, ownProfileResponseSchema, photosResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestClient } from "../../test/client.ts";
import { addBrandSite, createMember, type MemberOptions, type TestMember } from "../../test/factories.ts";
import { type TestApp, useTestApp } from "../../test/harness.ts";

let app: TestApp;

/** The default site reviews after (the embedded default); the brand site liefde.example reviews before. */
const AFTER = { host: "localhost" };
const BEFORE = { host: "liefde.example" };

useTestApp({ listen: false, seed: { profiles: 0 } }, async (env) => {
  app = env.app;
  await addBrandSite(app);
  await app.services.database.db.execute(
    sql`update sites set settings = settings || '{"moderation":"before"}'::jsonb where host = 'liefde.example'`,
  );
  app.services.site.invalidate();
});

let shade = 0;
async function image(): Promise<Buffer> {
  shade = (shade + 41) % 256;
  return sharp({ create: { width: 400, height: 500, channels: 3, background: { r: shade, g: 120, b: 90 } } })
    .jpeg()
    .toBuffer();
}

const member = (options: MemberOptions = {}) => createMember(app, { activate: true, ...options });

async function uploadOn(site: { host: string }, client: TestClient) {
  const response = await client.upload("/api/photos.php", await image(), { headers: site });
  expect(response.statusCode, response.body).toBe(200);
  const photos = photosResponseSchema.parse(response.json()).photos;
  const newest = photos.reduce((a, b) => (b.id > a.id ? b : a));
  return { photos, newest };
}

async function saveAboutOn(site: { host: string }, client: TestClient, about: string) {
  const response = await client.put("/api/profile.php", { about }, site);
  expect(response.statusCode, response.body).toBe(200);
  return ownProfileResponseSchema.parse(response.json()).profile;
}

/** `viewer`'s view of `owner`'s profile (the member page and its og:image come from this answer). */
async function viewOf(viewer: TestClient, owner: TestMember) {
  const response = await viewer.get(`/api/member.php?id=${owner.profileId}`);
  expect(response.statusCode, response.body).toBe(200);
  return memberResponseSchema.parse(response.json()).profile;
}

/** The queue's item for this photo or about text (profile id), or undefined when it does not wait. */
const inQueue = async (kind: "photo" | "about", id: number) =>
  (await app.services.moderation.queue(500)).find((item) => item.kind === kind && item.id === id);

const ownPhotos = async (client: TestClient) => photosResponseSchema.parse((await client.get("/api/photos.php")).json()).photos;

describe("the site's review setting", () => {
  it("is 'after' on the embedded default site and per site in the settings", async () => {
    const settingsOf = async (host: string) =>
      (await app.server.inject({ url: "/api/settings.php", headers: { host } })).json().settings.moderation;
    expect(await settingsOf(AFTER.host)).toBe("after");
    expect(await settingsOf(BEFORE.host)).toBe("before");
  });
});

describe("a site reviewing after", () => {
  let owner: TestMember;
  let other: TestMember;
  beforeAll(async () => {
    owner = await member({ name: "Anna" });
    other = await member({ gender: "male", name: "Bert" });
  });

  it("shows a new photo to others at once and queues it for review", async () => {
    const { newest } = await uploadOn(AFTER, owner.client);
    expect(newest).toMatchObject({ status: "active", rejection_reason: null, is_main: true });
    const seen = await viewOf(other.client, owner);
    expect(seen.photos.map((p) => p.id)).toContain(newest.id);
    expect(seen.main_image?.status).toBe("active");
    const photo = (await app.server.inject({ url: newest.url, headers: { cookie: other.client.cookieHeader() } })).statusCode;
    expect(photo).toBe(200);
    const queued = await inQueue("photo", newest.id);
    expect(queued).toMatchObject({ live: true, member: { userId: owner.userId, name: "Anna" } });
  });

  it("shows a new about text to others at once, not marked in review, and queues it", async () => {
    const own = await saveAboutOn(AFTER, owner.client, "I like long walks by the sea.");
    expect(own).toMatchObject({ about: "I like long walks by the sea.", about_in_review: false, about_rejection: null });
    expect((await viewOf(other.client, owner)).about).toBe("I like long walks by the sea.");
    const queued = await inQueue("about", owner.profileId);
    expect(queued).toMatchObject({ live: true, text: "I like long walks by the sea.", approvedText: "" });
  });

  it("does not queue the same text again when the member saves the form unchanged", async () => {
    const queuedAt = async () => (await inQueue("about", owner.profileId))?.submittedAt;
    const before = await queuedAt();
    expect(before).toBeInstanceOf(Date);
    await saveAboutOn(AFTER, owner.client, "I like long walks by the sea.");
    expect(await queuedAt()).toEqual(before);
  });

  it("takes an emptied about text live without review", async () => {
    const someone = await member();
    await saveAboutOn(AFTER, someone.client, "Hello there");
    const own = await saveAboutOn(AFTER, someone.client, "");
    expect(own).toMatchObject({ about: "", about_in_review: false });
    const queued = await inQueue("about", someone.profileId);
    expect(queued).toBeUndefined();
  });
});

describe("a site reviewing before", () => {
  let owner: TestMember;
  let other: TestMember;
  beforeAll(async () => {
    owner = await member({ name: "Carla" });
    other = await member({ gender: "male", name: "Dirk" });
  });

  it("shows a new photo to its owner as in review and to nobody else", async () => {
    const { newest } = await uploadOn(BEFORE, owner.client);
    expect(newest).toMatchObject({ status: "pending", rejection_reason: null, is_main: true });
    // Its owner sees it (listed, with its bytes), others neither in the profile nor by its address.
    expect((await ownPhotos(owner.client)).find((p) => p.id === newest.id)?.status).toBe("pending");
    const asOwner = await app.server.inject({ url: newest.url, headers: { cookie: owner.client.cookieHeader() } });
    expect(asOwner.statusCode).toBe(200);
    const seen = await viewOf(other.client, owner);
    expect(seen.photos).toEqual([]);
    // No main image, so no social preview (og:image needs main_image.status 'active').
    expect(seen.main_image).toBeNull();
    for (const url of [newest.url, newest.thumb_url]) {
      const asOther = await app.server.inject({ url, headers: { cookie: other.client.cookieHeader() } });
      expect(asOther.statusCode).toBe(404);
      expect((await app.server.inject({ url })).statusCode).toBe(404);
    }
    const queued = await inQueue("photo", newest.id);
    expect(queued).toMatchObject({ live: false, member: { userId: owner.userId, name: "Carla" } });
  });

  it("keeps a new about text from others (they see the last approved one) and shows it to its owner as in review", async () => {
    const own = await saveAboutOn(BEFORE, owner.client, "Call me on 0612345678");
    expect(own).toMatchObject({ about: "Call me on 0612345678", about_in_review: true, about_rejection: null });
    // The profile had no approved text yet: others see none.
    expect((await viewOf(other.client, owner)).about).toBe("");
    const queued = await inQueue("about", owner.profileId);
    expect(queued).toMatchObject({ live: false, text: "Call me on 0612345678", approvedText: "" });
  });
});

describe("the review queue", () => {
  it("lists photos and about texts together, oldest first, of everyone or of one member", async () => {
    const first = await member({ name: "Eva" });
    const second = await member({ name: "Finn" });
    const { newest: photo } = await uploadOn(AFTER, first.client);
    await saveAboutOn(AFTER, second.client, "Second in line");
    await saveAboutOn(BEFORE, first.client, "Third in line");
    const all = await app.services.moderation.queue(500);
    const order = all.map((item) => `${item.kind}:${item.id}`);
    const at = (key: string) => order.indexOf(key);
    expect(at(`photo:${photo.id}`)).toBeGreaterThanOrEqual(0);
    expect(at(`photo:${photo.id}`)).toBeLessThan(at(`about:${second.profileId}`));
    expect(at(`about:${second.profileId}`)).toBeLessThan(at(`about:${first.profileId}`));
    const times = all.map((item) => item.submittedAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const own = await app.services.moderation.queue(500, { userId: first.userId });
    expect(own.map((item) => `${item.kind}:${item.id}`)).toEqual([`photo:${photo.id}`, `about:${first.profileId}`]);
    expect(await app.services.moderation.queue(500, { userId: 987_654 })).toEqual([]);
  });
});
