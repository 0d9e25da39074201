// @vitest-environment node
import { type BanNotice, type CompanyInfo, LOCALE_CODES, type Settings, type SsrServices } from "@app/contract";
import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { fillPlaceholders, pageValues } from "../features/pages/placeholders";
import { PAGE_SLUGS } from "../features/pages/slugs";
import { createLoadContext } from "../server-context";
import { loader } from "./pages";

const company: CompanyInfo = {
  name: "Example Media B.V.",
  address: "Keizersgracht 1",
  kvk: "12345678",
  city: "Amsterdam",
  country: "Netherlands",
  tradenames: [],
  vat_numbers: ["NL001234567B01", "DE123456789"],
  support_phone: "+31201234567",
  delete_discount: 0,
  added: "2024-03-15T09:00:00Z",
};

const settings = {
  name: "Amoria",
  domain: "amoria.example",
  support_email: "help@amoria.example",
  refund_days: 14,
} as Settings;

function context(notice: BanNotice | null = null) {
  const fake = {
    mode: "test",
    nonce: "n",
    geoipCountry: null,
    currentUser: async () => null,
    banNotice: async () => notice,
    currentStaff: async () => null,
    domainLanguage: async () => null,
    settings: async () => settings,
    companyInfo: async () => company,
    teaser: async () => [],
    member: async () => null,
    cityCentre: async () => null,
    bundles: async () => {
      throw new Error("not on these pages");
    },
    matchFinder: async () => null,
    visitors: async () => null,
    swipeCandidates: async () => null,
    badges: async () => null,
    timeBonus: async () => null,
    welcomeDiscount: async () => null,
    regions: () => ({ regions: {} }),
    regionName: () => null,
    searchMembers: async () => null,
  } satisfies SsrServices;
  return createLoadContext(fake);
}

const load = (slug: string, locale: string, notice: BanNotice | null = null) =>
  loader({
    request: new Request(`http://localhost/pages/${slug}`, { headers: { cookie: `i18n_redirected=${locale}` } }),
    params: { slug },
    context: context(notice),
  } as unknown as Parameters<typeof loader>[0]);

describe("/pages/:slug", () => {
  it("has a Markdown file for every page in every locale", () => {
    const files = Object.keys(import.meta.glob("../features/pages/content/*/*.md"));
    const expected = LOCALE_CODES.flatMap((locale) => PAGE_SLUGS.map((slug) => `../features/pages/content/${locale}/${slug}.md`));
    expect(files.sort()).toEqual(expected.sort());
  });

  it.each(PAGE_SLUGS)("%s answers in every locale, in that locale's words, with every placeholder filled", async (slug) => {
    const pages = await Promise.all(LOCALE_CODES.map((locale) => load(slug, locale)));
    for (const page of pages) {
      expect(page.html).not.toMatch(/\{[a-z_]+\}/);
      expect(page.html.length).toBeGreaterThan(300);
      expect(page.title).not.toBe("");
    }
    // Seven locales, seven different texts and titles (no locale falls back to English).
    expect(new Set(pages.map((page) => page.html)).size).toBe(LOCALE_CODES.length);
    expect(new Set(pages.map((page) => page.title)).size).toBe(LOCALE_CODES.length);
  });

  it("renders the Markdown to HTML with the company's details", async () => {
    const service = await load("service", "en");
    expect(service.title).toBe("Customer service");
    expect(service.html).toContain("<h2>");
    expect(service.html).toContain("help@amoria.example");
    expect(service.html).toContain("+31201234567");
    expect(service.html).toContain("Keizersgracht 1");
    expect(service.html).toContain("NL001234567B01, DE123456789");
  });

  it("dates the terms by the company's added date when it is later than 2023-12-01", async () => {
    expect((await load("terms", "en")).html).toContain("March 15, 2024");
    expect((await load("terms", "de")).html).toContain("15. März 2024");
  });

  it("tells a banned member's browser on /pages/ban why and until when, in the member's language", async () => {
    const notice: BanNotice = { reason: "harassment", ends_at: "2026-12-24T18:30:00.000Z" };
    expect((await load("ban", "en", notice)).ban).toEqual({
      title: "Your account is banned",
      reason: "Reason: harassing or threatening other members.",
      until: "The ban ends on December 24, 2026 at 06:30 PM UTC. You can log in again after that.",
      contact: "If you think this is a mistake, you can tell us through the complaints form.",
    });
    const de = await load("ban", "de", notice);
    expect(de.ban?.reason).toBe("Grund: Belästigung oder Bedrohung anderer Mitglieder.");
    expect(de.ban?.until).toContain("24. Dezember 2026");
    expect((await load("ban", "fr", { reason: "spam", ends_at: null })).ban).toMatchObject({
      title: "Votre compte est banni",
      until: "Le bannissement n'a pas de date de fin.",
    });
    // Without a ban behind the cookie, and on the other pages, there is no notice.
    expect((await load("ban", "en")).ban).toBeNull();
    expect((await load("terms", "en", notice)).ban).toBeNull();
  });

  it("answers 404 for a slug that is not a page", async () => {
    const error = await load("nope", "en").catch((e: unknown) => e);
    const status = isRouteErrorResponse(error) ? error.status : (error as { init?: ResponseInit }).init?.status;
    expect(status).toBe(404);
  });
});

describe("fillPlaceholders", () => {
  const values = pageValues(company, settings, "nl");

  it("fills every known placeholder and leaves unknown ones visible", () => {
    expect(fillPlaceholders("{site_name} ({domain}), {refund_days} dagen, {kvk}, {oops}", values)).toBe(
      "Amoria (amoria.example), 14 dagen, 12345678, {oops}",
    );
  });

  it("names the site with its domain only when the domain is a name (issue #29: not 'Amoria (127.0.0.1)')", () => {
    expect(fillPlaceholders("{site}", values)).toBe("Amoria (amoria.example)");
    expect(fillPlaceholders("{site}", pageValues(company, { ...settings, domain: "127.0.0.1" }, "en"))).toBe("Amoria");
    expect(fillPlaceholders("{site}", pageValues(company, { ...settings, domain: "localhost:3000" }, "en"))).toBe("Amoria");
    expect(fillPlaceholders("{site}", pageValues(company, { ...settings, domain: "[::1]" }, "en"))).toBe("Amoria");
  });

  it("escapes HTML in the values", () => {
    expect(fillPlaceholders("{company_name}", { company_name: "A & B <i>" })).toBe("A &amp; B &lt;i&gt;");
  });

  it("names a company country given as a code in the locale", () => {
    expect(pageValues({ ...company, country: "NL" }, settings, "de").company_country).toBe("Niederlande");
    expect(values.company_country).toBe("Netherlands");
  });

  it("formats the terms date in the locale, never before 2023-12-01", () => {
    expect(values.terms_date).toBe("15 maart 2024");
    expect(pageValues({ ...company, added: "2020-01-01T00:00:00Z" }, settings, "en").terms_date).toBe("December 1, 2023");
  });
});
