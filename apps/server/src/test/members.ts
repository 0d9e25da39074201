import { type MemberSearchResponse, memberSearchResponseSchema } from "@app/contract";
import type { SQL } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { seed } from "../seed/seed.ts";
import type { TestClient } from "./client.ts";
import { createMember, sqlRows, type TestMember } from "./factories.ts";
import { openTestDatabase, startTestApp, type TestApp, type TestDatabase } from "./harness.ts";

/**
 * One app on a fresh database for a test file, seeded with `profiles` demo members: registers the file's
 * beforeAll/afterAll; read `app` and `database` inside tests.
 */
export function seededTestApp(profiles: number): { app: TestApp; database: TestDatabase } {
  const env = {} as { app: TestApp; database: TestDatabase };
  beforeAll(async () => {
    env.database = await openTestDatabase();
    env.app = await startTestApp(env.database, { listen: false });
    await seed(env.app.services, { profiles });
  }, 300_000);
  afterAll(async () => {
    await env.app?.stop();
    await env.database?.destroy();
  });
  return env;
}

/** Rows of a raw query (test assertions read the tables directly). */
export const rowsOf = <T>(database: TestDatabase, query: SQL) => sqlRows<T>(database.db, query);

/** Jo, a man born 1988-02-02 seeking women, with their own client; active unless `activate: false`. */
export function signUpMember(app: TestApp, options: { paid?: boolean; activate?: boolean } = {}): Promise<TestMember> {
  return createMember(app, {
    name: "Jo",
    gender: "male",
    seeking: "female",
    dateOfBirth: "1988-02-02",
    activate: true,
    ...options,
  });
}

/** GET /api/members.php as `client`, which must answer 200 with the contract's shape. */
export async function searchAs(client: TestClient, query: string): Promise<MemberSearchResponse> {
  const response = await client.get(`/api/members.php${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return memberSearchResponseSchema.parse(response.json());
}
