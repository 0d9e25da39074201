import {
  type ModerationItem,
  memberResponseSchema,
  ownProfileResponseSchema,
  photosResponseSchema,
  STAFF_MODERATION_ENDPOINTS,
} from "@app/contract";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { OutboxMailer } from "../../platform/mailer.ts";
import type { TestClient } from "../../test/client.ts";
import { addBrandSite, createMember, type MemberOptions, sqlCount, type TestMember } from "../../test/factories.ts";
import { type TestApp, useTestApp } from "../../test/harness.ts";
import { staffLogin } from "../../test/staff.ts";

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

describe("the staff's decisions (/staff/api/moderation)", () => {
  const { moderationQueue: queueCall, moderationDecide: decideCall } = STAFF_MODERATION_ENDPOINTS;
  let moderator: TestClient;
  let viewer: TestMember;
  beforeAll(async () => {
    moderator = (await staffLogin(app, "moderator")).client;
    viewer = await member({ gender: "male", name: "Gus" });
  });

  const auditOf = async (userId: number) => (await app.services.staff.auditFor({ memberId: userId }, { limit: 50 })).entries;
  const auditCount = () => sqlCount(app.services.database.db, sql`select count(*)::int as n from staff_audit`);

  /** The queue's items of one member, as the console reads them. */
  async function queueOf(userId: number): Promise<ModerationItem[]> {
    const response = await moderator.get(`${queueCall.path}?member=${userId}`);
    expect(response.statusCode, response.body).toBe(200);
    return queueCall.response.parse(response.json()).items;
  }

  const refOf = (item: ModerationItem) => ({ kind: item.kind, id: item.id, submitted_at: item.submitted_at });
  const decide = (body: unknown, client = moderator) => client.post(decideCall.path, body);

  it("approves a photo held back for review: others see it from then on, and the audit log says who did", async () => {
    const owner = await member({ name: "Hanna" });
    const { newest } = await uploadOn(BEFORE, owner.client);
    const [item] = await queueOf(owner.userId);
    expect(item).toMatchObject({ kind: "photo", id: newest.id, live: false, member: { id: owner.userId, name: "Hanna" } });
    if (item?.kind !== "photo") throw new Error("photo expected");
    // Staff see the bytes of a photo others may not see yet.
    expect((await moderator.get(item.thumb_url)).statusCode).toBe(200);

    const response = await decide({ decision: "approve", items: [refOf(item)] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ decided: [{ kind: "photo", id: newest.id }], stale: [] });
    const seen = await viewOf(viewer.client, owner);
    expect(seen.photos.map((p) => p.id)).toEqual([newest.id]);
    expect(seen.main_image?.status).toBe("active");
    expect(await queueOf(owner.userId)).toEqual([]);
    const [entry] = await auditOf(owner.userId);
    expect(entry).toMatchObject({
      action: "photo.approve",
      object_type: "photo",
      object_id: String(newest.id),
      before: { status: "pending" },
      after: { status: "active" },
    });
  });

  it("rejects a photo with a reason: hidden from others, the reason shown to the member and e-mailed in their language", async () => {
    const owner = await member({ name: "Ines", locale: "de" });
    const { newest: kept } = await uploadOn(AFTER, owner.client);
    await decide({ decision: "approve", items: (await queueOf(owner.userId)).map(refOf) });
    const { newest: rejected } = await uploadOn(AFTER, owner.client);
    // Reviewing after: live until the decision.
    expect((await viewOf(viewer.client, owner)).photos.map((p) => p.id)).toContain(rejected.id);
    const made = await owner.client.put("/api/photo.php", { id: rejected.id, main: true });
    expect(made.statusCode, made.body).toBe(200);

    const response = await decide({
      decision: "reject",
      reason: "not_a_person",
      items: (await queueOf(owner.userId)).map(refOf),
    });
    expect(response.statusCode, response.body).toBe(200);
    const own = await ownPhotos(owner.client);
    expect(own.find((p) => p.id === rejected.id)).toMatchObject({
      status: "rejected",
      rejection_reason: "not_a_person",
      is_main: false,
    });
    // The main role went back to the approved photo, which others see; the rejected one is gone for them.
    expect(own.find((p) => p.id === kept.id)?.is_main).toBe(true);
    const seen = await viewOf(viewer.client, owner);
    expect(seen.photos.map((p) => p.id)).toEqual([kept.id]);
    expect((await viewer.client.get(rejected.url)).statusCode).toBe(404);
    // The owner cannot make it the main photo again.
    const again = await owner.client.put("/api/photo.php", { id: rejected.id, main: true });
    expect(again.json().error).toBe("photo_rejected");

    for (let round = 0; round < 20 && (await app.services.jobs.runDue()) > 0; round++);
    const mails = await (app.services.mailer as OutboxMailer).list(20);
    const mail = mails.find((m) => m.to === owner.email && m.subject === "Dein Foto auf Amoria wurde abgelehnt");
    expect(mail?.text).toContain("Grund: Es zeigt nicht dich (eine Person).");
    expect((await auditOf(owner.userId))[0]).toMatchObject({
      action: "photo.reject",
      after: { status: "rejected", reason: "not_a_person" },
    });
  });

  it("rejects an about text: the profile reverts to the last approved one and the member reads why", async () => {
    const owner = await member({ name: "Jonas" });
    await saveAboutOn(BEFORE, owner.client, "Hiking and jazz");
    await decide({ decision: "approve", items: (await queueOf(owner.userId)).map(refOf) });
    expect((await viewOf(viewer.client, owner)).about).toBe("Hiking and jazz");

    await saveAboutOn(AFTER, owner.client, "Text me: jonas@example.org");
    expect((await viewOf(viewer.client, owner)).about).toBe("Text me: jonas@example.org");
    const [item] = await queueOf(owner.userId);
    expect(item).toMatchObject({
      kind: "about",
      live: true,
      text: "Text me: jonas@example.org",
      approved_text: "Hiking and jazz",
    });
    if (!item) throw new Error("about text expected");
    const response = await decide({ decision: "reject", reason: "contact_details", items: [refOf(item)] });
    expect(response.statusCode, response.body).toBe(200);

    expect((await viewOf(viewer.client, owner)).about).toBe("Hiking and jazz");
    const own = ownProfileResponseSchema.parse((await owner.client.get("/api/profile.php")).json()).profile;
    expect(own).toMatchObject({ about: "Hiking and jazz", about_in_review: false, about_rejection: "contact_details" });
    expect((await auditOf(owner.userId))[0]).toMatchObject({
      action: "about.reject",
      object_type: "profile",
      before: { about: "Text me: jonas@example.org", approved: "Hiking and jazz" },
      after: { about: "Hiking and jazz", reason: "contact_details" },
    });
  });

  it("approves many at once, each with its own audit row, and lists what no longer waited", async () => {
    const owner = await member({ name: "Karin" });
    await uploadOn(BEFORE, owner.client);
    await uploadOn(BEFORE, owner.client);
    await saveAboutOn(BEFORE, owner.client, "Bulk text");
    const items = await queueOf(owner.userId);
    expect(items.map((i) => i.kind)).toEqual(["photo", "photo", "about"]);
    const [first] = items;
    if (!first) throw new Error("items expected");
    await decide({ decision: "approve", items: [refOf(first)] });
    const auditBefore = (await auditOf(owner.userId)).length;

    const response = await decide({ decision: "approve", items: items.map(refOf) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().stale).toEqual([{ kind: first.kind, id: first.id }]);
    expect(response.json().decided).toHaveLength(2);
    expect((await auditOf(owner.userId)).length).toBe(auditBefore + 2);
    expect((await ownPhotos(owner.client)).map((p) => p.status)).toEqual(["active", "active"]);
    expect((await viewOf(viewer.client, owner)).about).toBe("Bulk text");
  });

  it("refuses a decision on an about text the member changed since it was loaded, changing nothing", async () => {
    const owner = await member();
    await saveAboutOn(BEFORE, owner.client, "First draft");
    const [loaded] = await queueOf(owner.userId);
    if (!loaded) throw new Error("about text expected");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await saveAboutOn(BEFORE, owner.client, "Second draft");
    const before = await auditCount();
    const response = await decide({ decision: "approve", items: [refOf(loaded)] });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe("moderation_decided");
    expect(await auditCount()).toBe(before);
    expect((await viewOf(viewer.client, owner)).about).toBe("");
    expect(await queueOf(owner.userId)).toMatchObject([{ kind: "about", text: "Second draft" }]);
  });

  describe("the audit row and the change share one transaction", () => {
    it("a decision that fails after its write leaves neither the change nor an audit row", async () => {
      const restore = app.services.moderation.rejectionJob;
      const owner = await member();
      const { newest } = await uploadOn(BEFORE, owner.client);
      const before = await auditCount();
      // The rejection notice is enqueued after the photo's row changed, in the same transaction: make it fail.
      app.services.moderation.rejectionJob = { name: "moderation.no-such-job" };
      try {
        const response = await decide({
          decision: "reject",
          reason: "explicit",
          items: (await queueOf(owner.userId)).map(refOf),
        });
        expect(response.statusCode).toBe(500);
      } finally {
        app.services.moderation.rejectionJob = restore;
      }
      expect(await auditCount()).toBe(before);
      expect((await ownPhotos(owner.client)).find((p) => p.id === newest.id)).toMatchObject({
        status: "pending",
        rejection_reason: null,
      });
      expect(await queueOf(owner.userId)).toHaveLength(1);
    });
  });

  it("checks the input: a rejection needs a reason from the list; nothing changes", async () => {
    const owner = await member();
    await uploadOn(BEFORE, owner.client);
    const items = (await queueOf(owner.userId)).map(refOf);
    const before = await auditCount();
    const noReason = await decide({ decision: "reject", items });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().fields).toMatchObject({ reason: expect.any(String) });
    expect((await decide({ decision: "reject", reason: "ugly", items })).statusCode).toBe(422);
    expect((await decide({ decision: "approve", items: [] })).statusCode).toBe(422);
    expect(await auditCount()).toBe(before);
    expect(await queueOf(owner.userId)).toHaveLength(1);
  });

  it("serves photos under review to moderators and admins only", async () => {
    const owner = await member();
    await uploadOn(BEFORE, owner.client);
    const [item] = await queueOf(owner.userId);
    if (item?.kind !== "photo") throw new Error("photo expected");
    const admin = (await staffLogin(app, "admin")).client;
    expect((await admin.get(item.url)).statusCode).toBe(200);
    for (const role of ["operator", "support"] as const) {
      const other = (await staffLogin(app, role)).client;
      const refused = await other.get(item.url);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe("staff_forbidden");
    }
    expect((await owner.client.get(item.url)).statusCode).toBe(404);
    expect((await app.server.inject({ url: item.url })).statusCode).toBe(404);
  });
});
