import {
  distanceBucket,
  geocodeResponseSchema,
  memberResponseSchema,
  memberSearchResponseSchema,
  ownProfileResponseSchema,
} from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestClient } from "../../test/client.ts";
import { createMember, sqlRows } from "../../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { LocationService, normalisePlaceName } from "./service.ts";

let database: TestDatabase;
let app: TestApp;

useTestApp({ listen: false, seed: { profiles: 0 } }, (env) => {
  ({ app, database } = env);
});

const member = (gender: "male" | "female") =>
  createMember(app, { gender, name: gender === "female" ? "Lotte" : "Sem", dateOfBirth: "1990-05-05", activate: true });

async function moveTo(client: TestClient, place: { country: string; region: string | null; city: string | null }) {
  const response = await client.put("/api/profile.php", place);
  expect(response.statusCode, response.body).toBe(200);
}

const positionOf = async (profileId: number) =>
  (
    await sqlRows<{ latitude: number | null; longitude: number | null }>(
      database.db,
      sql`select latitude, longitude from profiles where id = ${profileId}`,
    )
  )[0];

describe("offline gazetteer", () => {
  const regions: Record<string, string[]> = {
    PL: ["PL-14", "PL-12"],
    ES: ["ES-CL", "ES-MD", "ES-IB"],
    DE: ["DE-BY", "DE-NW"],
  };
  const location = new LocationService(Object.keys(regions), (c) => regions[c] ?? [], [
    { country: "DE", region: "DE-BY", name: "München", lat: 48.14, lon: 11.58 },
  ]);

  it("maps the data's state codes onto our ISO 3166-2 regions (Poland, Castilla y León, Balearics)", () => {
    expect(location.reverse(52.23, 21.01)).toMatchObject({ country: "PL", region: "PL-14" });
    expect(location.reverse(50.06, 19.94)).toMatchObject({ country: "PL", region: "PL-12" });
    expect(location.reverse(41.65, -4.72)).toMatchObject({ country: "ES", region: "ES-CL" });
    expect(location.reverse(39.57, 2.65)).toMatchObject({ country: "ES", region: "ES-IB" });
  });

  it("finds the centre of a typed city whatever its case and accents, preferring the given region", () => {
    expect(normalisePlaceName("  Kraków ")).toBe("krakow");
    expect(location.coordinatesOf("PL", "PL-12", "KRAKOW")).toMatchObject({ lat: expect.closeTo(50.06, 1) });
    expect(location.coordinatesOf("DE", null, "munchen")).toEqual({ lat: 48.14, lon: 11.58 });
    expect(location.coordinatesOf("DE", "DE-BY", "Munich")?.lat).toBeCloseTo(48.14, 1);
    expect(location.coordinatesOf("DE", null, "Atlantis")).toBeNull();
    expect(location.coordinatesOf("DE", null, "")).toBeNull();
    // A city of another country is not this one.
    expect(location.coordinatesOf("PL", null, "Munich")).toBeNull();
  });

  it("buckets distances at 5, 10, 25, 50, 100, 250 and 500 km", () => {
    expect(distanceBucket(0)).toEqual({ within_km: 5 });
    expect(distanceBucket(4.99)).toEqual({ within_km: 5 });
    expect(distanceBucket(5)).toEqual({ within_km: 10 });
    expect(distanceBucket(18)).toEqual({ within_km: 25 });
    expect(distanceBucket(499)).toEqual({ within_km: 500 });
    expect(distanceBucket(500)).toEqual({ within_km: null });
  });
});

describe("distance between members", () => {
  it("stores the centre of the member's city, never a device position, and forgets it with the city", async () => {
    const { client, profileId } = await member("female");
    await moveTo(client, { country: "NL", region: "NL-NH", city: "Haarlem" });
    const position = await positionOf(profileId);
    expect(position?.latitude).toBeCloseTo(52.38, 1);
    expect(position?.longitude).toBeCloseTo(4.64, 1);
    // Coordinates are not part of the profile call at all.
    expect((await client.put("/api/profile.php", { latitude: 1, longitude: 2 })).statusCode).toBe(422);
    expect(ownProfileResponseSchema.parse((await client.get("/api/profile.php")).json()).profile.located).toBe(true);
    await moveTo(client, { country: "NL", region: "NL-NH", city: "Nowhere-at-all" });
    expect(await positionOf(profileId)).toEqual({ latitude: null, longitude: null });
    // The member is told: their own profile says the city was not found on the map.
    expect(ownProfileResponseSchema.parse((await client.get("/api/profile.php")).json()).profile.located).toBe(false);
  });

  it("finds the position of profiles saved with a city before positions existed", async () => {
    const { profileId } = await member("female");
    await database.db.execute(
      sql`update profiles set country = 'DE', region = 'DE-BY', city = 'München', latitude = null, longitude = null where id = ${profileId}`,
    );
    expect(await app.services.profiles.backfillPositions()).toBeGreaterThanOrEqual(1);
    const position = await positionOf(profileId);
    expect(position?.latitude).toBeCloseTo(48.14, 1);
    expect(await app.services.profiles.backfillPositions()).toBe(0);
  });

  it("shows other members how far away someone lives as a bucket only, never the coordinates", async () => {
    const lotte = await member("female");
    const sem = await member("male");
    await moveTo(lotte.client, { country: "NL", region: "NL-NH", city: "Haarlem" });
    await moveTo(sem.client, { country: "NL", region: "NL-NH", city: "Amsterdam" });

    const viewResponse = await sem.client.get(`/api/member.php?id=${lotte.profileId}`);
    const view = memberResponseSchema.parse(viewResponse.json());
    // Haarlem to Amsterdam is about 18 km.
    expect(view.profile.distance).toEqual({ within_km: 25 });
    expect(viewResponse.body).not.toMatch(/latitude|longitude|52\.3\d/);

    const found = await sem.client.get("/api/members.php?gender=female&country=NL&countryregion=NL-NH");
    const card = memberSearchResponseSchema.parse(found.json()).profiles.find((p) => p.id === lotte.profileId);
    expect(card?.distance).toEqual({ within_km: 25 });
    expect(found.body).not.toMatch(/latitude|longitude/);

    // Visitors see no distance; nor does anyone when a city is unknown.
    const visitor = memberResponseSchema.parse(
      (await new TestClient(app.server).get(`/api/member.php?id=${lotte.profileId}`)).json(),
    );
    expect(visitor.profile.distance).toBeNull();
    await moveTo(sem.client, { country: "PL", region: "PL-14", city: "Warszawa" });
    const far = memberResponseSchema.parse((await sem.client.get(`/api/member.php?id=${lotte.profileId}`)).json());
    expect(far.profile.distance).toEqual({ within_km: null });
    await moveTo(sem.client, { country: "NL", region: null, city: null });
    const unknown = memberResponseSchema.parse((await sem.client.get(`/api/member.php?id=${lotte.profileId}`)).json());
    expect(unknown.profile.distance).toBeNull();
  });
});

const geocode = (query: string) => app.server.inject({ url: `/api/geocode.php${query}` });

describe("GET /api/geocode.php (offline)", () => {
  it("finds the city, country and region of a point", async () => {
    const amsterdam = geocodeResponseSchema.parse((await geocode("?lat=52.3731&lon=4.8922")).json());
    expect(amsterdam).toMatchObject({ country: "NL", city: "Amsterdam" });
    const munich = geocodeResponseSchema.parse((await geocode("?lat=48.137&lon=11.575")).json());
    expect(munich).toMatchObject({ country: "DE", region: "DE-BY" });
    expect(munich.city).toMatch(/M(ü|u)nchen|Munich/);
  });

  it("answers 404 far from any served city and 422 for bad coordinates", async () => {
    expect((await geocode("?lat=0&lon=-30")).statusCode).toBe(404);
    expect((await geocode("?lat=35.68&lon=139.69")).statusCode).toBe(404);
    for (const bad of ["?lat=91&lon=0", "?lat=abc&lon=1", "?lon=4"]) {
      const response = await geocode(bad);
      expect(response.statusCode, bad).toBe(422);
      expect(response.json().error).toBe("validation_failed");
    }
  });
});
