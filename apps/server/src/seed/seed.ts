import { BODY_TYPES, EYE_COLORS, HAIR_COLORS, INTEREST_KEYS, RELATIONSHIP_STATUSES } from "@app/contract";
import type { Services } from "../app.ts";
import type { EncodedPhoto } from "../modules/photos/index.ts";
import type { NewPhoto } from "../modules/photos/queries.ts";
import { DEMO_ABOUT, DEMO_CITIES, DEMO_COUNTRY_LANGUAGE, DEMO_FIRST_NAMES } from "../modules/site/data/demo-people.ts";
import { countSites, insertSiteWithCompany } from "../modules/site/queries.ts";
import { SERVED_COUNTRIES } from "../modules/site/service.ts";
import { seedsDemoAccounts } from "../platform/config.ts";
import { SEED_LOCK } from "../platform/db/index.ts";
import { giveDemoLife, givePremium } from "./demo-life.ts";
import { portraitSvg } from "./portrait.ts";
import { cachedPortrait } from "./portrait-cache.ts";

/** The demo accounts the README lists. Their passwords are public: demo data only. */
export const DEMO_ACCOUNTS = {
  free: { email: "free@example.com", password: "free-demo-2025", name: "Sam", paid: false, credits: 20 },
  // Its 500 credits come from its paid order (DEMO_PURCHASE in demo-life.ts), not from a grant.
  premium: { email: "premium@example.com", password: "premium-demo-2025", name: "Alex", paid: true, credits: 0 },
} as const;

/**
 * The demo staff the README lists (issue #27), one per role, on a test site only like the demo members:
 * their passwords and TOTP secrets are public. Add the secret to an authenticator app, or compute the
 * code (e2e/staff-helpers.ts does).
 */
export const DEMO_STAFF = {
  admin: {
    email: "admin@amoria.example",
    password: "admin-demo-2025",
    name: "Ada Admin",
    totpSecret: "AMORIADEMOADMINSTAFFSECRETAAAAAA",
  },
  operator: {
    email: "operator@amoria.example",
    password: "operator-demo-2025",
    name: "Otto Operator",
    totpSecret: "AMORIADEMOOPERATORSTAFFSECRETAAA",
  },
  moderator: {
    email: "moderator@amoria.example",
    password: "moderator-demo-2025",
    name: "Mia Moderator",
    totpSecret: "AMORIADEMOMODERATORSTAFFSECRETAA",
  },
  support: {
    email: "support@amoria.example",
    password: "support-demo-2025",
    name: "Sol Support",
    totpSecret: "AMORIADEMOSUPPORTSTAFFSECRETAAAA",
  },
} as const;

/** A small deterministic PRNG (mulberry32) so every seed run makes the same members. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedResult {
  created: boolean;
  profiles: number;
}

/**
 * Idempotent demo data: the default site with its company, the two demo accounts and `profiles`
 * fictional demo members with generated photos. Each part is created only when missing, so a second
 * run (or a run after a crash half-way) completes what is missing and changes nothing else.
 */
export async function seed(services: Services, options: { profiles: number; log?: (msg: string) => void }): Promise<SeedResult> {
  // Nodes starting together on one fresh database: one seeds, the others then find nothing missing.
  return services.database.withLock(SEED_LOCK, () => seedUnlocked(services, options));
}

async function seedUnlocked(services: Services, options: { profiles: number; log?: (msg: string) => void }): Promise<SeedResult> {
  const { db } = services.database;
  let created = false;
  if ((await countSites(db)) === 0) {
    await insertSiteWithCompany(
      db,
      {
        name: "Amoria Media B.V.",
        address: "Keizersgracht 123",
        kvk: "81234567",
        city: "Amsterdam",
        country: "NL",
        tradenames: ["Amoria"],
        vatNumbers: ["NL862345678B01"],
        supportPhone: "+31 20-123 45 67",
        deleteDiscount: 50,
        added: new Date("2024-03-01T09:00:00Z"),
      },
      {
        host: "localhost",
        isDefault: true,
        name: "Amoria",
        indexTitle: "",
        description: "",
        supportEmail: "support@amoria.example",
        domainLanguage: null,
        // The demo shows the partner tiles of member_resell; a real site names its own partners.
        settings: {
          member_resell: true,
          resell_tiles: [
            { kind: "camera", url: "https://cams.example/?ref=amoria", partner: "LiveCams" },
            { kind: "resell", url: "https://singles.example/?ref=amoria", partner: "Singles Europe" },
          ],
        },
      },
    );
    created = true;
  }

  // Their passwords are in the README: a public site gets them only when SEED_DEMO_ACCOUNTS asks.
  const newDemoAccounts: Array<{ userId: number; kind: keyof typeof DEMO_ACCOUNTS }> = [];
  for (const [kind, account] of seedsDemoAccounts(services.config) ? Object.entries(DEMO_ACCOUNTS) : []) {
    if (await services.accounts.findByEmail(account.email)) continue;
    const user = await services.accounts.create({
      email: account.email,
      passwordHash: await services.accounts.hashPassword(account.password),
      status: "active",
      language: "en",
    });
    if (account.credits > 0) {
      await db.transaction((tx) =>
        services.credits.change(tx, { userId: user.id, delta: account.credits, reason: "demo_grant" }),
      );
    }
    const home = services.location.coordinatesOf("NL", "NL-NH", "Amsterdam");
    await services.profiles.create({
      userId: user.id,
      name: account.name,
      gender: account.paid ? "male" : "female",
      seeking: account.paid ? "female" : "male",
      sexuality: "hetero",
      birthDate: account.paid ? "1990-05-17" : "1994-09-02",
      country: "NL",
      region: "NL-NH",
      city: "Amsterdam",
      latitude: home?.lat ?? null,
      longitude: home?.lon ?? null,
      about: "",
    });
    // Premium comes with a purchase: a paid order through the payments module (demo-life.ts).
    if (account.paid) await givePremium(services, user.id);
    newDemoAccounts.push({ userId: user.id, kind: kind as keyof typeof DEMO_ACCOUNTS });
    created = true;
  }

  for (const [role, person] of seedsDemoAccounts(services.config) ? Object.entries(DEMO_STAFF) : []) {
    if (await services.staff.findByEmail(person.email)) continue;
    await services.staff.create({ ...person, role: role as keyof typeof DEMO_STAFF, language: "en" });
    created = true;
  }

  // Demo discount codes (issue #12): one for anyone, one for the Netherlands only, one from a minimum
  // order, one that has expired. Existing codes stay as they are.
  await services.discounts.add([
    { code: "SPRING10", valuePercentage: 10, validity: "once_per_member" },
    { code: "HOLLAND15", valuePercentage: 15, country: "NL", currency: "EUR", validity: "once_per_member" },
    { code: "BIG20", valuePercentage: 20, minimumOrderCents: 3999, currency: "EUR", validity: "unlimited" },
    { code: "SUMMER30", valuePercentage: 30, expiresAt: new Date("2025-09-01T00:00:00Z"), validity: "once_per_member" },
  ]);

  const have = await services.profiles.countFictional();
  if (have < options.profiles) {
    await createDemoMembers(services, have, options.profiles, options.log);
    created = true;
  }
  // Once the fictional profiles exist: the new demo accounts' likes, matches and conversations.
  for (const account of newDemoAccounts) await giveDemoLife(services, account.userId, account.kind);

  return { created, profiles: await services.profiles.countFictional() };
}

/** How many demo members' photos are encoded ahead of the database work (they overlap). */
const PHOTO_BATCH = 8;

/** Creates demo members `from` … `to - 1`: each batch's photos encode while the previous batch is stored. */
async function createDemoMembers(services: Services, from: number, to: number, log?: (msg: string) => void): Promise<void> {
  const photosOf = (start: number) =>
    Promise.all(
      Array.from({ length: Math.max(0, Math.min(PHOTO_BATCH, to - start)) }, (_, offset) => {
        const member = planDemoMember(start + offset);
        return Promise.all(
          member.portraits.map((svg) => cachedPortrait(svg, (input) => services.photos.encode(input, { fast: true }))),
        ).then((encoded) => ({ member, encoded }));
      }),
    );
  let next = from < to ? photosOf(from) : null;
  for (let start = from; next; start += PHOTO_BATCH) {
    const batch = await next;
    next = start + PHOTO_BATCH < to ? photosOf(start + PHOTO_BATCH) : null;
    for (const { member, encoded } of batch) {
      await storeDemoMember(services, member, encoded);
      if (log && member.index > 0 && member.index % 100 === 0) log(`seeded ${member.index} demo profiles`);
    }
  }
}

/** Demo member `index`, the same on every run (its own PRNG), and its portraits' SVGs. */
function planDemoMember(index: number) {
  const rand = random(index + 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const country = SERVED_COUNTRIES[index % SERVED_COUNTRIES.length] as string;
  const gender = rand() < 0.5 ? "female" : "male";
  const names = DEMO_FIRST_NAMES[country]?.[gender] ?? ["Alex"];
  const city = pick(DEMO_CITIES[country] ?? []);
  const roll = rand();
  const sexuality = roll < 0.8 ? "hetero" : roll < 0.88 ? (gender === "male" ? "gay" : "lesbian") : "bi";
  // Ages 18–69, weighted towards 25–45.
  const age = Math.min(69, 18 + Math.floor(Math.abs(rand() + rand() + rand() - 1.2) * 22));
  const now = new Date();
  const birth = new Date(Date.UTC(now.getUTCFullYear() - age - 1, Math.floor(rand() * 12), 1 + Math.floor(rand() * 28)));
  const hair = gender === "male" && rand() < 0.1 ? "bald" : pick(HAIR_COLORS.filter((h) => h !== "bald"));
  const interests = [...INTEREST_KEYS].sort(() => rand() - 0.5).slice(0, 3 + Math.floor(rand() * 5));
  const language = DEMO_COUNTRY_LANGUAGE[country] ?? "en";
  const name = pick(names);
  const signupDate = new Date(Date.now() - Math.floor(rand() * 365) * 86_400_000);
  const profile = {
    name,
    gender,
    sexuality,
    birthDate: birth.toISOString().slice(0, 10),
    country,
    region: city?.region ?? null,
    city: city?.name ?? null,
    latitude: city ? city.lat + (rand() - 0.5) * 0.1 : null,
    longitude: city ? city.lon + (rand() - 0.5) * 0.1 : null,
    hairColor: hair,
    eyeColor: pick(EYE_COLORS),
    bodyType: pick(BODY_TYPES),
    relationshipStatus: pick(RELATIONSHIP_STATUSES.filter((s) => s !== "married" && s !== "living_together")),
    tattoos: rand() < 0.3,
    interests,
    about: pick(DEMO_ABOUT[language] ?? DEMO_ABOUT.en),
  } as const;
  const photoCount = 1 + Math.floor(rand() * 3);
  const portraits = Array.from({ length: photoCount }, (_, variant) =>
    portraitSvg({ seed: index, initial: name.charAt(0), hairColor: hair, gender, variant }),
  );
  return { index, language, signupDate, profile, portraits };
}

async function storeDemoMember(
  services: Services,
  member: ReturnType<typeof planDemoMember>,
  encoded: EncodedPhoto[],
): Promise<void> {
  const user = await services.accounts.create({
    email: null,
    passwordHash: null,
    status: "active",
    fictional: true,
    language: member.language,
    signupDate: member.signupDate,
  });
  const profile = await services.profiles.create({
    ...member.profile,
    interests: [...member.profile.interests],
    userId: user.id,
    fictional: true,
    createdAt: user.signupDate,
  });
  const rows: NewPhoto[] = [];
  for (const [variant, photo] of encoded.entries()) {
    rows.push(
      await services.photos.addEncoded(profile.id, photo, {
        isMain: variant === 0,
        status: "active",
        position: variant,
        private: variant === 2,
      }),
    );
  }
  await services.photos.saveRows(rows);
}
