import { geocodeResponseSchema } from "@app/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../seed/seed.ts";
import { openTestDatabase, startTestApp, type TestApp, type TestDatabase } from "../../test/harness.ts";

let database: TestDatabase;
let app: TestApp;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await startTestApp(database, { listen: false });
  await seed(app.services, { profiles: 0 });
});

afterAll(async () => {
  await app?.stop();
  await database?.destroy();
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
