import { type MemberSearchResponse, memberSearchResponseSchema } from "@app/contract";
import { expect } from "vitest";
import type { TestClient } from "./client.ts";
import { createMember, type TestMember } from "./factories.ts";
import type { TestApp } from "./harness.ts";

/** Rows of a raw query (test assertions read the tables directly). */

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
