import { ownProfileResponseSchema, photosResponseSchema } from "@app/contract";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { createMember, type MemberOptions } from "../../test/factories.ts";
import { type TestApp, useTestApp } from "../../test/harness.ts";
import { IMAGE_WORK_CONCURRENCY } from "../photos/service.ts";

let app: TestApp;

useTestApp({ listen: false, seed: { profiles: 0 } }, (env) => {
  app = env.app;
});

/** Kim, a man born 1992-06-01 seeking women, just signed up (profile not active yet). */
const member = (options: Pick<MemberOptions, "paid"> = {}) =>
  createMember(app, { name: "Kim", gender: "male", dateOfBirth: "1992-06-01", ...options });

/** A JPEG with EXIF and GPS metadata that must never survive an upload. */
async function photoWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 1000, channels: 3, background: { r: 200, g: 80, b: 120 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: "SecretCam", Copyright: "Jane Secret" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "52/1 22/1 1/1", GPSLongitudeRef: "E", GPSLongitude: "4/1 53/1 1/1" },
    })
    .toBuffer();
}

function upload(client: TestClient, file: Buffer, options: { filename?: string; field?: string; type?: string } = {}) {
  return client.upload("/api/photos.php", file, options);
}

const storedFiles = async () =>
  (await import("node:fs/promises")).readdir(`${app.dataDir}/files/photos`).catch(() => [] as string[]);

describe("own profile", () => {
  it("answers every profile field and saves a subset", async () => {
    const { client } = await member();
    const own = ownProfileResponseSchema.parse((await client.get("/api/profile.php")).json()).profile;
    expect(own).toMatchObject({
      name: "Kim",
      gender: "male",
      seeking: "female",
      sexuality: "hetero",
      status: "disabled",
      photo_limit: 3,
      photos: [],
    });
    const saved = await client.put("/api/profile.php", {
      about: "  I like long walks.  ",
      relationship_status: "single",
      hair_color: "dark_blond",
      interests: ["music", "wine", "music"],
      country: "DE",
      region: "DE-BY",
      city: "München",
      seeking: "both",
    });
    expect(saved.statusCode).toBe(200);
    expect(ownProfileResponseSchema.parse(saved.json()).profile).toMatchObject({
      about: "I like long walks.",
      relationship_status: "single",
      hair_color: "dark_blond",
      interests: ["music", "wine"],
      country: "DE",
      region: "DE-BY",
      city: "München",
      seeking: "both",
      sexuality: "bi",
    });
  });

  it("refuses values outside the spec's lists, regions of another country and unknown fields, changing nothing", async () => {
    const { client } = await member();
    const before = (await client.get("/api/profile.php")).json();
    for (const bad of [
      { hair_color: "purple" },
      { region: "DE-BY" },
      { country: "ZZ" },
      { interests: ["knitting-robots"] },
      { email: "x@y.z" },
    ]) {
      const response = await client.put("/api/profile.php", bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(422);
      expect(response.json().error).toBe("validation_failed");
    }
    expect((await client.get("/api/profile.php")).json()).toEqual(before);
  });
});

describe("photo uploads", () => {
  it("strips every bit of EXIF and GPS metadata and serves the photo to its owner", async () => {
    const { client } = await member();
    const original = await photoWithGps();
    expect((await sharp(original).metadata()).exif?.includes(Buffer.from("SecretCam"))).toBe(true);
    const response = await upload(client, original);
    expect(response.statusCode).toBe(200);
    const { photos } = photosResponseSchema.parse(response.json());
    expect(photos).toHaveLength(1);
    expect(photos[0]).toMatchObject({ is_main: true, status: "active", private: false });
    for (const url of [photos[0]?.url ?? "", photos[0]?.thumb_url ?? ""]) {
      const served = await client.get(url);
      expect(served.statusCode).toBe(200);
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(served.rawPayload.includes(Buffer.from("SecretCam"))).toBe(false);
      expect(served.rawPayload.includes(Buffer.from("Jane Secret"))).toBe(false);
    }
    // The profile is not active yet (e-mail unconfirmed): nobody else gets the bytes.
    expect((await new TestClient(app.server).get(photos[0]?.url ?? "")).statusCode).toBe(404);
  });

  it("allows 3 photos to a free member and refuses the 4th with nothing stored", async () => {
    const { client } = await member();
    const image = await photoWithGps();
    for (let i = 0; i < 3; i++) expect((await upload(client, image)).statusCode).toBe(200);
    const files = (await storedFiles()).length;
    const fourth = await upload(client, image);
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json()).toMatchObject({ error: "photo_limit_reached", message: "You have reached the limit of 3 photos." });
    expect((await storedFiles()).length).toBe(files);
    expect(photosResponseSchema.parse((await client.get("/api/photos.php")).json()).photos).toHaveLength(3);
  });

  it("allows 25 photos to a premium member", async () => {
    const { client } = await member({ paid: true });
    const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#888" } })
      .png()
      .toBuffer();
    for (let i = 0; i < 25; i++)
      expect((await upload(client, image, { filename: "a.png", type: "image/png" })).statusCode).toBe(200);
    const over = await upload(client, image, { filename: "a.png", type: "image/png" });
    expect(over.json()).toMatchObject({ error: "photo_limit_reached", params: { limit: 25 } });
    const listed = photosResponseSchema.parse((await client.get("/api/photos.php")).json());
    expect(listed).toMatchObject({ photo_limit: 25 });
    expect(listed.photos).toHaveLength(25);
    expect(listed.photos.filter((p) => p.is_main)).toHaveLength(1);
  });

  it("decodes at most two images at a time, however many uploads arrive at once", async () => {
    const { client } = await member({ paid: true });
    const image = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#468" } })
      .jpeg()
      .toBuffer();
    let most = 0;
    let sampling = true;
    const sample = async () => {
      while (sampling) {
        most = Math.max(most, app.services.photos.imageQueue.active);
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const sampler = sample();
    const answers = await Promise.all(Array.from({ length: 8 }, () => upload(client, image)));
    sampling = false;
    await sampler;
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(most).toBe(IMAGE_WORK_CONCURRENCY);
    expect(app.services.photos.imageQueue).toEqual({ active: 0, pending: 0 });
  });

  it("refuses files that are not images, whatever they claim, and pixel floods, storing nothing", async () => {
    const { client } = await member();
    const before = (await storedFiles()).length;
    const fake = await upload(client, Buffer.from("<?php echo 'hi'; ?>"), { filename: "x.jpg", type: "image/jpeg" });
    expect(fake.statusCode).toBe(422);
    expect(fake.json().error).toBe("photo_invalid");
    const svg = await upload(client, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), {
      filename: "x.svg",
      type: "image/svg+xml",
    });
    expect(svg.json().error).toBe("photo_invalid");
    // 8000 x 6000 = 48 megapixels (over the 40 MP limit), compressed to a few KB: refused before decoding.
    const flood = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: "#000" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(flood.length).toBeLessThan(1_000_000);
    expect((await upload(client, flood, { filename: "f.png", type: "image/png" })).json().error).toBe("photo_invalid");
    const wrongField = await upload(client, await photoWithGps(), { field: "file" });
    expect(wrongField.json().error).toBe("photo_invalid");
    expect((await storedFiles()).length).toBe(before);
    expect(photosResponseSchema.parse((await client.get("/api/photos.php")).json()).photos).toHaveLength(0);
  });

  it("sets the main photo, marks one premium-only, reorders and deletes, only for the owner", async () => {
    const { client } = await member();
    const image = await photoWithGps();
    for (let i = 0; i < 3; i++) await upload(client, image);
    const listed = photosResponseSchema.parse((await client.get("/api/photos.php")).json()).photos;
    const [first, second, third] = listed;
    expect(first?.is_main).toBe(true);

    const main = photosResponseSchema.parse((await client.put("/api/photo.php", { id: third?.id, main: true })).json()).photos;
    expect(main.filter((p) => p.is_main).map((p) => p.id)).toEqual([third?.id]);
    const priv = photosResponseSchema.parse(
      (await client.put("/api/photo.php", { id: second?.id, private: true })).json(),
    ).photos;
    expect(priv.find((p) => p.id === second?.id)?.private).toBe(true);
    const moved = photosResponseSchema.parse((await client.put("/api/photo.php", { id: third?.id, position: 0 })).json()).photos;
    expect(moved.map((p) => p.id)).toEqual([third?.id, first?.id, second?.id]);
    expect(moved.map((p) => p.position)).toEqual([0, 1, 2]);

    // Someone else's photo is not theirs to change or delete.
    const stranger = (await member()).client;
    expect((await stranger.put("/api/photo.php", { id: third?.id, main: true })).statusCode).toBe(404);
    expect((await stranger.request("DELETE", `/api/photo.php?id=${third?.id}`)).statusCode).toBe(404);
    expect((await client.put("/api/photo.php", { id: third?.id, colour: "red" })).statusCode).toBe(422);

    const before = (await storedFiles()).length;
    const after = photosResponseSchema.parse((await client.request("DELETE", `/api/photo.php?id=${third?.id}`)).json()).photos;
    expect(after.map((p) => p.id)).toEqual([first?.id, second?.id]);
    expect(after.filter((p) => p.is_main)).toHaveLength(1);
    expect((await storedFiles()).length).toBe(before - 2);
    expect((await client.get(third?.url ?? "")).statusCode).toBe(404);
  });

  it("needs a session", async () => {
    const response = await upload(new TestClient(app.server), await photoWithGps());
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe("authentication_required");
  });
});
