import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page, request } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { hydrated } from "./fixtures";

/** The seeded demo staff (README; apps/server/src/seed/seed.ts). */
export const DEMO_STAFF = {
  admin: { email: "admin@amoria.example", password: "admin-demo-2025", totpSecret: "AMORIADEMOADMINSTAFFSECRETAAAAAA" },
  operator: { email: "operator@amoria.example", password: "operator-demo-2025", totpSecret: "AMORIADEMOOPERATORSTAFFSECRETAAA" },
  moderator: {
    email: "moderator@amoria.example",
    password: "moderator-demo-2025",
    totpSecret: "AMORIADEMOMODERATORSTAFFSECRETAA",
  },
  support: { email: "support@amoria.example", password: "support-demo-2025", totpSecret: "AMORIADEMOSUPPORTSTAFFSECRETAAAA" },
} as const;

export type StaffRole = keyof typeof DEMO_STAFF;

const PERIOD = 30;
const stepsDir = path.join(import.meta.dirname, "../test-results/staff-totp");

export function totpCode(secret: string, at = Date.now()): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: PERIOD, algorithm: "SHA1" }).generate({
    timestamp: at,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A code for an account that no other login of this run has used: the server takes each 30-second
 * code once (a replayed code is refused), and the two workers may log the same demo account in within
 * one step. A lock directory per account serialises them; a step already used waits for the next.
 */
export async function freshCode(email: string, secret: string): Promise<string> {
  mkdirSync(stepsDir, { recursive: true });
  const lock = path.join(stepsDir, `${email}.lock`);
  const last = path.join(stepsDir, `${email}.step`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      await sleep(100);
    }
  }
  try {
    let used = 0;
    try {
      used = Number(readFileSync(last, "utf8"));
    } catch {}
    let step = Math.floor(Date.now() / 1000 / PERIOD);
    if (step <= used) {
      await sleep((used + 1) * PERIOD * 1000 - Date.now() + 200);
      step = Math.floor(Date.now() / 1000 / PERIOD);
    }
    writeFileSync(last, String(step));
    return totpCode(secret, step * PERIOD * 1000 + 1000);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

let adminContext: Promise<APIRequestContext> | null = null;

/** The site under test (playwright.config.ts: the same port; workers inherit E2E_PORT). */
export const E2E_BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3199)}`;

/** This worker's API session as the demo admin (logged in once per worker). */
export function staffAdmin(): Promise<APIRequestContext> {
  adminContext ??= (async () => {
    const context = await request.newContext({ baseURL: E2E_BASE_URL });
    const { email, password, totpSecret } = DEMO_STAFF.admin;
    const response = await context.post("/staff/api/login", {
      data: { email, password, code: await freshCode(email, totpSecret) },
    });
    expect(response.status(), await response.text()).toBe(200);
    return context;
  })();
  return adminContext;
}

let made = 0;

export interface NewStaff {
  id: number;
  email: string;
  name: string;
  password: string;
  totpSecret: string;
}

/** A new staff account of `role`, made by the demo admin through the console's API. */
export async function createStaffAccount(role: StaffRole, language = "en"): Promise<NewStaff> {
  const admin = await staffAdmin();
  made++;
  const name = `${role[0]?.toUpperCase()}${role.slice(1)} ${process.pid}-${made}`;
  const email = `${role}.${process.pid}.${made}.${Date.now()}@staff.example`;
  const password = "e2e staff password 2026";
  const response = await admin.post("/staff/api/staff", { data: { email, name, role, language, password } });
  expect(response.status(), await response.text()).toBe(200);
  const enrolment = (await response.json()) as { account: { id: number }; totp_secret: string };
  return { id: enrolment.account.id, email, name, password, totpSecret: enrolment.totp_secret };
}

/**
 * Logs `page` in to the console as a new staff member of `role`, through the login form with the
 * authenticator's code, as a new operator would; answers the account.
 */
export async function staffLoginInBrowser(page: Page, role: StaffRole, language = "en"): Promise<NewStaff> {
  const account = await createStaffAccount(role, language);
  await page.goto("/staff");
  await hydrated(page);
  await page.locator("#staff-email").fill(account.email);
  await page.locator("#staff-password").fill(account.password);
  await page.locator("#staff-code").fill(totpCode(account.totpSecret));
  await page.locator("form[aria-labelledby='staff-login-title'] button[type=submit]").click();
  await expect(page.locator("nav.staff-nav")).toBeVisible();
  return account;
}
