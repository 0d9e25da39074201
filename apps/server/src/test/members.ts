import { type MemberSearchResponse, memberSearchResponseSchema } from "@app/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { seed } from "../seed/seed.ts";
import { TestClient } from "./client.ts";
import { openTestDatabase, startTestApp, type TestApp, type TestDatabase } from "./harness.ts";

let n = 0;

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
export const rowsOf = async <T>(database: TestDatabase, query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * A member who signed up (a man born 1988-02-02 seeking women, named Jo) with their own client; active
 * unless `activate: false`, premium with `paid`.
 */
export async function signUpMember(
  app: TestApp,
  database: TestDatabase,
  options: { paid?: boolean; activate?: boolean } = {},
): Promise<{ client: TestClient; userId: number; profileId: number }> {
  const client = new TestClient(app.server);
  const response = await client.post("/api/signup.php", {
    email: `m${++n}.${Date.now()}@example.org`,
    name: "Jo",
    password: "correct horse battery",
    date_of_birth: "1988-02-02",
    gender: "male",
    seeking: "female",
  });
  expect(response.statusCode, response.body).toBe(200);
  const id = response.json().user.id as number;
  if (options.activate !== false) await database.db.execute(sql`update profiles set status = 'active' where user_id = ${id}`);
  if (options.paid) await database.db.execute(sql`update users set paid_user = true where id = ${id}`);
  const [profile] = await rowsOf<{ id: number }>(database, sql`select id from profiles where user_id = ${id}`);
  return { client, userId: id, profileId: profile?.id ?? 0 };
}

/** GET /api/members.php as `client`, which must answer 200 with the contract's shape. */
export async function searchAs(client: TestClient, query: string): Promise<MemberSearchResponse> {
  const response = await client.get(`/api/members.php${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return memberSearchResponseSchema.parse(response.json());
}
