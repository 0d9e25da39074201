import {
  companyInfoResponseSchema,
  interestsResponseSchema,
  regionsResponseSchema,
  settingsResponseSchema,
  settingsSchema,
} from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, type TestDatabase, useTestApp } from "../../test/harness.ts";
import { insertSiteWithCompany } from "./queries.ts";

let database: TestDatabase;
let app: TestApp;

useTestApp({ env: { GEOIP_HEADER: "X-Country" }, listen: false, seed: { profiles: 0 } }, async (env) => {
  ({ app, database } = env);
  await insertSiteWithCompany(
    database.db,
    {
      name: "Liefde Media B.V.",
      address: "Straat 1",
      kvk: "999",
      city: "Utrecht",
      country: "NL",
      supportPhone: "030 - 123 45 67",
      added: new Date("2025-02-01T00:00:00Z"),
    },
    {
      host: "liefde.example",
      name: "Liefde",
      indexTitle: "Vind de liefde",
      description: "Nederlandse site",
      supportEmail: "help@liefde.example",
      domainLanguage: "nl",
      settings: { signups: "with_trafficsource", message_credits: 15, logged_out_search: "none" },
    },
  );
  app.services.site.invalidate();
});

const get = (url: string, headers: Record<string, string> = {}) => app.server.inject({ method: "GET", url, headers });

describe("GET /api/settings.php", () => {
  it("answers every Settings field of spec §3 for the default site", async () => {
    const response = await get("/api/settings.php", { host: "unknown.example:3000" });
    expect(response.statusCode).toBe(200);
    const { settings } = settingsResponseSchema.parse(response.json());
    expect(Object.keys(settings).sort()).toEqual(Object.keys(settingsSchema.shape).sort());
    expect(settings.name).toBe("Amoria");
    expect(settings.domain).toBe("unknown.example");
    expect(settings.cdn_prefix).toBe("/cdn/");
    expect(settings.signups).toBe("all");
    expect(settings.domain_language).toBeNull();
    expect(settings.countries).toEqual(
      expect.arrayContaining(["NL", "BE", "DE", "AT", "CH", "FR", "IT", "ES", "PL", "GB", "IE", "US", "CA", "AU", "NZ"]),
    );
  });

  it("serves the site of the request's host with its overrides", async () => {
    const { settings } = settingsResponseSchema.parse((await get("/api/settings.php", { host: "Liefde.example" })).json());
    expect(settings).toMatchObject({
      name: "Liefde",
      index_title: "Vind de liefde",
      domain: "liefde.example",
      domain_language: "nl",
      signups: "with_trafficsource",
      message_credits: 15,
      logged_out_search: "none",
      support_email: "help@liefde.example",
    });
  });

  it("takes geo-ip from the configured header and the selected country from the route's query", async () => {
    const plain = settingsResponseSchema.parse((await get("/api/settings.php", { "x-country": "be" })).json()).settings;
    expect(plain.geoip_country).toBe("BE");
    expect(plain.geoip_selected_country).toBe("BE");
    const chosen = settingsResponseSchema.parse(
      (await get("/api/settings.php?country=de", { "x-country": "BE" })).json(),
    ).settings;
    expect(chosen.geoip_selected_country).toBe("DE");
    const unserved = settingsResponseSchema.parse(
      (await get("/api/settings.php?country=zz", { "x-country": "BE" })).json(),
    ).settings;
    expect(unserved.geoip_selected_country).toBe("BE");
  });

  it("writes its texts in the request's language", async () => {
    const en = settingsResponseSchema.parse((await get("/api/settings.php")).json()).settings;
    const de = settingsResponseSchema.parse((await get("/api/settings.php", { cookie: "i18n_redirected=de" })).json()).settings;
    expect(en.fictional_plural).toBe("fictional profiles");
    expect(de.fictional_plural).not.toBe(en.fictional_plural);
    expect(de.index_title).toContain("Amoria");
    expect(de.index_title).not.toBe(en.index_title);
  });
});

describe("GET /api/settings.php, answered again from its kept serialisation", () => {
  it("keeps one answer per host, language and country, and takes a site edit after the reload", async () => {
    const once = await get("/api/settings.php", { host: "first.example", "x-country": "NL" });
    const again = await get("/api/settings.php", { host: "first.example", "x-country": "NL" });
    expect(again.body).toBe(once.body);
    const other = settingsResponseSchema.parse(
      (await get("/api/settings.php", { host: "second.example", "x-country": "NL" })).json(),
    );
    expect(other.settings.domain).toBe("second.example");
    const french = settingsResponseSchema.parse(
      (await get("/api/settings.php", { host: "first.example", "x-country": "FR", cookie: "i18n_redirected=fr" })).json(),
    ).settings;
    expect(french.geoip_country).toBe("FR");
    expect(french.fictional_plural).not.toBe("fictional profiles");

    await database.db.execute(
      sql`update sites set settings = settings || '{"message_credits": 12}'::jsonb where host = 'liefde.example'`,
    );
    const before = settingsResponseSchema.parse((await get("/api/settings.php", { host: "liefde.example" })).json());
    expect(before.settings.message_credits).toBe(15);
    app.services.site.invalidate();
    const after = settingsResponseSchema.parse((await get("/api/settings.php", { host: "liefde.example" })).json());
    expect(after.settings.message_credits).toBe(12);
  });
});

describe("GET /api/companyinfo.php", () => {
  it("returns the company with the support phone cleaned of dashes and spaces", async () => {
    const { company } = companyInfoResponseSchema.parse((await get("/api/companyinfo.php", { host: "liefde.example" })).json());
    expect(company.support_phone).toBe("0301234567");
    expect(company.name).toBe("Liefde Media B.V.");
    const fallback = companyInfoResponseSchema.parse((await get("/api/companyinfo.php")).json()).company;
    expect(fallback.support_phone).toBe("+31201234567");
  });
});

describe("GET /api/interests.php", () => {
  it("lists about 48 interest keys with labels in the request's language", async () => {
    const en = interestsResponseSchema.parse((await get("/api/interests.php")).json()).interests;
    expect(en).toHaveLength(48);
    expect(en.map((i) => i.key)).toEqual(
      expect.arrayContaining(["relationship", "kissing", "music", "travelling", "wine", "gym"]),
    );
    expect(en.find((i) => i.key === "music")?.label).toBe("Music");
    const nl = interestsResponseSchema.parse(
      (await get("/api/interests.php", { "accept-language": "nl-BE,nl;q=0.9" })).json(),
    ).interests;
    expect(nl.find((i) => i.key === "travelling")?.label).not.toBe("Travelling");
    expect(nl.every((i) => i.label && !i.label.startsWith("interest."))).toBe(true);
  });
});

describe("GET /api/regions.php", () => {
  it("has the subdivisions of every served country", async () => {
    const { regions } = regionsResponseSchema.parse((await get("/api/regions.php")).json());
    const counts = Object.fromEntries(Object.entries(regions).map(([country, list]) => [country, list.length]));
    expect(counts).toMatchObject({ NL: 12, DE: 16, AT: 9, CH: 26, PL: 16, IT: 20, US: 51, CA: 13, AU: 8 });
    for (const list of Object.values(regions)) expect(list.length).toBeGreaterThan(0);
    expect(regions.NL?.map((r) => r.name)).toContain("Noord-Holland");
    expect(regions.DE?.map((r) => r.name)).toContain("Bayern");
  });
});
