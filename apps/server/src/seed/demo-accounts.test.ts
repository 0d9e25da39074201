import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, startTestApp, type TestDatabase } from "../test/harness.ts";
import { DEMO_ACCOUNTS, seed } from "./seed.ts";

/**
 * Issue #25: the README prints the demo accounts' passwords, so a public site that seeded them would
 * hand anyone a premium account with 500 credits. They are made on a test site only (decision 030),
 * or where SEED_DEMO_ACCOUNTS asks for them.
 */
describe("the demo accounts of the seed", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const seededEmails = async (env: Record<string, string>) => {
    const app = await startTestApp(database, { listen: false, env });
    try {
      await seed(app.services, { profiles: 0 });
      const found = await Promise.all(Object.values(DEMO_ACCOUNTS).map((a) => app.services.accounts.findByEmail(a.email)));
      return found.filter((user) => user !== null && user !== undefined).length;
    } finally {
      await app.stop();
    }
  };

  it("are not made on a public site, and are made when SEED_DEMO_ACCOUNTS asks or on a loopback site", async () => {
    const publicSite = { HOST: "0.0.0.0", PUBLIC_URL: "https://www.amoria.example" };
    expect(await seededEmails(publicSite)).toBe(0);
    // A loopback node behind a proxy with a public PUBLIC_URL is a public site too.
    expect(await seededEmails({ HOST: "127.0.0.1", PUBLIC_URL: "https://www.amoria.example" })).toBe(0);
    expect(await seededEmails({ ...publicSite, SEED_DEMO_ACCOUNTS: "true" })).toBe(2);
  });

  it("are made on the embedded default that `npm start` runs", async () => {
    const fresh = await openTestDatabase();
    try {
      const app = await startTestApp(fresh, { listen: false, env: { HOST: "127.0.0.1" } });
      try {
        await seed(app.services, { profiles: 0 });
        expect(await app.services.accounts.findByEmail(DEMO_ACCOUNTS.premium.email)).toBeTruthy();
      } finally {
        await app.stop();
      }
    } finally {
      await fresh.destroy();
    }
  });
});
