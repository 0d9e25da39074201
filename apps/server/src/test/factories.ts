import { type SignupRequest, type User, userResponseSchema } from "@app/contract";
import type { SQL } from "drizzle-orm";
import sharp from "sharp";
import { expect } from "vitest";
import { insertSiteWithCompany } from "../modules/site/queries.ts";
import { type DbOrTx, rowsOf } from "../platform/db/index.ts";
import { TestClient } from "./client.ts";
import type { TestApp } from "./harness.ts";

/** The rows of a raw query (for checks a service does not answer). */
export const sqlRows = rowsOf;

/** The number in column `n` of a query's first row (`select count(*)::int as n ...`). */
export async function sqlCount(db: DbOrTx, query: SQL): Promise<number> {
  return Number((await sqlRows<{ n: number }>(db, query))[0]?.n ?? 0);
}

let members = 0;

/** A fresh e-mail address no other test uses. */
export const uniqueEmail = (prefix = "member") => `${prefix}${++members}.${Date.now()}@example.org`;

/** A valid signup form; `extra` overrides fields. */
export const signupBody = (email: string, extra: Partial<Record<keyof SignupRequest, unknown>> = {}) => ({
  email,
  name: "Robin",
  password: "correct horse battery",
  date_of_birth: "1990-04-12",
  gender: "female",
  seeking: "male",
  ...extra,
});

export interface MemberOptions {
  name?: string;
  gender?: "male" | "female";
  /** Defaults to the other gender. */
  seeking?: "male" | "female" | "both";
  dateOfBirth?: string;
  email?: string;
  /** The client's Accept-Language and address. */
  locale?: string;
  address?: string;
  /** Activate the profile (as a confirmed e-mail address would); a new signup's profile is disabled. */
  activate?: boolean;
  /** Premium (through the credits module, as a purchase will). */
  paid?: boolean;
  /** Credits on top of the signup bonus. */
  credits?: number;
  country?: string;
  region?: string | null;
  city?: string | null;
}

export interface TestMember {
  userId: number;
  profileId: number;
  email: string;
  /** Logged in as the member (the signup's session). */
  client: TestClient;
  /** The signup's answer (before activation, premium or credits were applied). */
  user: User;
}

/** A member signed up through the API, logged in on `client`, then shaped by `options`. */
export async function createMember(app: TestApp, options: MemberOptions = {}): Promise<TestMember> {
  const client = new TestClient(app.server, { locale: options.locale, address: options.address });
  const email = options.email ?? uniqueEmail();
  const gender = options.gender ?? "female";
  const response = await client.post(
    "/api/signup.php",
    signupBody(email, {
      gender,
      seeking: options.seeking ?? (gender === "female" ? "male" : "female"),
      ...(options.name ? { name: options.name } : {}),
      ...(options.dateOfBirth ? { date_of_birth: options.dateOfBirth } : {}),
    }),
  );
  expect(response.statusCode, response.body).toBe(200);
  const { user } = userResponseSchema.parse(response.json());
  if (!user) throw new Error("signup answered no user");
  const { db } = app.services.database;
  if (options.activate) await app.services.profiles.activateForUser(db, user.id);
  if (options.paid) await app.services.credits.grantPremium(db, user.id);
  if (options.credits)
    await app.services.credits.changeNow(db, { userId: user.id, delta: options.credits, reason: "test_grant" });
  if (options.country) {
    const place = { country: options.country, region: options.region ?? null, city: options.city ?? null };
    const moved = await client.put("/api/profile.php", place);
    expect(moved.statusCode, moved.body).toBe(200);
  }
  return { userId: user.id, profileId: user.profile.id, email, client, user };
}

let photos = 0;

/**
 * An active photo on a profile, stored as an upload would be (re-encoded, on the app's storage): the
 * main one, or a further public or private one. Returns the stored row.
 */
export async function addPhoto(app: TestApp, profileId: number, options: { main?: boolean; private?: boolean } = {}) {
  const shade = (++photos * 37) % 256;
  const image = await sharp({ create: { width: 400, height: 500, channels: 3, background: { r: shade, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();
  const row = await app.services.photos.addFromBuffer(profileId, image, {
    isMain: options.main ?? false,
    status: "active",
    position: photos,
    private: options.private ?? false,
  });
  await app.services.photos.saveRows([row]);
  return row;
}

/** `blocker` blocks `blocked` (the blocks module's own call, as the block button makes it). */
export async function block(app: TestApp, blocker: Pick<TestMember, "profileId">, blocked: Pick<TestMember, "profileId">) {
  await app.services.blocks.block(blocker.profileId, blocked.profileId);
}

/**
 * A brand site beside the default one: `liefde.example` ("Liefde"), whose own domain gets its links and
 * its origin checks (issue #25). The site cache is dropped so the app sees it at once.
 */
export async function addBrandSite(app: TestApp): Promise<void> {
  await insertSiteWithCompany(
    app.services.database.db,
    {
      name: "Liefde Media B.V.",
      address: "Straat 1",
      kvk: "999",
      city: "Utrecht",
      country: "NL",
      supportPhone: "0301234567",
      added: new Date("2025-02-01T00:00:00Z"),
    },
    { host: "liefde.example", name: "Liefde", indexTitle: "", description: "", supportEmail: "help@liefde.example" },
  );
  app.services.site.invalidate();
}
