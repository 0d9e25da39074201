import { STAFF_SESSION_COOKIE, type StaffContext, type StaffRole, staffMeResponseSchema } from "@app/contract";
import { expect } from "vitest";
import { StaffService } from "../modules/staff/service.ts";
import { TestClient } from "./client.ts";
import type { TestApp } from "./harness.ts";

let made = 0;
export const STAFF_TEST_PASSWORD = "correct horse battery staple";

/** A new staff account of `role` (its enrolment: the TOTP secret and recovery codes). */
export async function createStaff(app: TestApp, role: StaffRole, language: StaffContext["language"] = "en") {
  made++;
  return app.services.staff.create({
    email: `${role}${made}.${Date.now()}@staff.example`,
    name: `${role} ${made}`,
    role,
    language,
    password: STAFF_TEST_PASSWORD,
  });
}

/**
 * A staff member of `role`, logged in with password and TOTP: a client that keeps the staff cookie, and
 * the `staff.session=...` Cookie header for requests made without it.
 */
export async function staffLogin(
  app: TestApp,
  role: StaffRole,
  language: StaffContext["language"] = "en",
): Promise<{ cookie: string; staff: StaffContext; client: TestClient; totpSecret: string }> {
  const enrolment = await createStaff(app, role, language);
  const client = new TestClient(app.server);
  const response = await client.post("/staff/api/login", {
    email: enrolment.account.email,
    password: STAFF_TEST_PASSWORD,
    code: StaffService.codeFor(enrolment.totp_secret),
  });
  expect(response.statusCode, response.body).toBe(200);
  const { staff } = staffMeResponseSchema.parse(response.json());
  return {
    cookie: `${STAFF_SESSION_COOKIE}=${client.cookies.get(STAFF_SESSION_COOKIE)}`,
    staff,
    client,
    totpSecret: enrolment.totp_secret,
  };
}
