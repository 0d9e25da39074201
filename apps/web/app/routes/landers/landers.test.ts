// @vitest-environment node
import {
  LOCALE_CODES,
  type LocaleCode,
  type MemberSearchQuery,
  type Settings,
  type SsrServices,
  type TeaserProfile,
  type User,
} from "@app/contract";
import { describe, expect, it } from "vitest";
import { loadLander } from "../../features/landers/load.server";
import { LANDER_VARIANTS, LANDERS, type Lander, variantOf } from "../../features/landers/variants";

const settings = {
  name: "Amoria",
  countries: ["NL", "DE"],
  geoip_country: "DE",
  geoip_selected_country: null,
} as unknown as Settings;

const profile = (
  id: number,
  gender: "female" | "male",
  country: string,
  city: string,
  age = 30,
): TeaserProfile & { gender: string } => ({
  id,
  name: `Member ${id}`,
  age,
  country,
  city,
  fictional: id % 2 === 0,
  main_image: { thumb_url: `/photos/${id}.jpg`, status: "active" },
  distance: null,
  gender,
});

const MEMBERS = [
  profile(1, "female", "DE", "Berlin"),
  profile(2, "male", "DE", "München", 45),
  profile(3, "female", "NL", "Utrecht", 52),
  profile(4, "male", "DE", "Atlantis"),
  profile(5, "female", "DE", "Hamburg"),
];
const CITIES: Record<string, { lat: number; lon: number }> = {
  "DE:Berlin": { lat: 52.52, lon: 13.4 },
  "DE:München": { lat: 48.14, lon: 11.58 },
  "DE:Hamburg": { lat: 53.55, lon: 9.99 },
};

function services(user: User | null = null) {
  const searches: MemberSearchQuery[] = [];
  const fake = {
    mode: "test",
    nonce: "n",
    geoipCountry: "DE",
    currentUser: async () => user,
    banNotice: async () => null,
    currentStaff: async () => null,
    domainLanguage: async () => null,
    settings: async () => settings,
    companyInfo: async () => {
      throw new Error("not used");
    },
    teaser: async () => MEMBERS,
    member: async () => null,
    matchFinder: async () => null,
    visitors: async () => null,
    swipeCandidates: async () => null,
    badges: async () => null,
    timeBonus: async () => null,
    welcomeDiscount: async () => null,
    regions: () => ({ regions: {} }),
    regionName: () => null,
    bundles: async () => {
      throw new Error("not on these pages");
    },
    cityCentre: async (country: string, city: string) => CITIES[`${country}:${city}`] ?? null,
    searchMembers: async (query: MemberSearchQuery) => {
      searches.push(query);
      const profiles = MEMBERS.filter(
        (m) =>
          (!query.gender || m.gender === query.gender) &&
          (!query.country || m.country === query.country) &&
          (!query.min_age || m.age >= query.min_age),
      );
      return { profiles, numResults: profiles.length, numResultsCapped: false, page: 1, pages: 1, similar: [] };
    },
  } satisfies SsrServices;
  return { fake, searches };
}

const load = (lander: Lander, locale: LocaleCode, slug?: string, fake = services().fake) =>
  loadLander(
    fake,
    new Request(`http://localhost/landers/${lander}`, { headers: { cookie: `i18n_redirected=${locale}` } }),
    lander,
    slug,
  );

describe("landers", () => {
  it.each(LANDERS)("%s has its own title, description and headline in every locale", async (lander) => {
    const pages = await Promise.all(LOCALE_CODES.map((locale) => load(lander, locale)));
    for (const page of pages) {
      expect(page.title).toContain("Amoria");
      expect(page.description).toContain("Amoria");
      expect(page.headline).not.toBe("");
      expect(`${page.title}${page.description}${page.headline}`).not.toMatch(/[{}]/);
    }
    for (const field of ["title", "description", "headline"] as const) {
      expect(new Set(pages.map((page) => page[field])).size, field).toBe(LOCALE_CODES.length);
    }
  });

  it("gives every lander a distinct title and headline", async () => {
    const pages = await Promise.all(LANDERS.map((lander) => load(lander, "en")));
    expect(new Set(pages.map((page) => page.title)).size).toBe(LANDERS.length);
    expect(new Set(pages.map((page) => page.headline)).size).toBe(LANDERS.length);
  });

  it("selects a variant by slug: its headline and audience; unknown slugs get the default", async () => {
    const { fake, searches } = services();
    const women = await load("gallery", "en", "women", fake);
    expect(women.variant).toBe("women");
    expect(women.headline).toBe("Women on Amoria are waiting to meet you");
    expect(searches.at(-1)).toEqual({ gender: "female" });
    expect(women.profiles.map((p) => p.id)).toEqual([1, 3, 5]);

    const nearby = await load("gallery", "de", "nearby", fake);
    expect(nearby.headline).toBe("Singles in Deutschland sind jetzt online auf Amoria");
    expect(searches.at(-1)).toEqual({ country: "DE" });

    const over40 = await load("socialnetwork", "en", "OVER40", fake);
    expect(over40.profiles.map((p) => p.id)).toEqual([2, 3]);

    const unknown = await load("gallery", "en", "no-such-campaign", fake);
    expect(unknown.variant).toBe("default");
    expect(unknown.headline).toBe("Meet the newest members");
    expect(unknown.profiles).toHaveLength(MEMBERS.length);
  });

  it("knows each lander's variants and falls back to the default for others", () => {
    expect(variantOf("maplanding", "nearby")).toBe("nearby");
    expect(variantOf("collagelanding", "nearby")).toBe("default");
    expect(variantOf("tinderswipe", "women")).toBe("default");
    for (const lander of LANDERS) for (const variant of LANDER_VARIANTS[lander]) expect(variantOf(lander, variant)).toBe(variant);
  });

  it("puts the visitor's country's members on its outline at their cities, never elsewhere", async () => {
    const map = (await load("maplanding", "en")).map;
    expect(map?.country).toBe("DE");
    expect(map?.d).toMatch(/^M\d/);
    // Berlin, München and Hamburg: the Dutch member and the unknown city are left off.
    expect(map?.markers.map((m) => m.id).sort()).toEqual([1, 2, 5]);
    const byId = new Map(map?.markers.map((m) => [m.id, m]));
    const [berlin, munich, hamburg] = [byId.get(1), byId.get(2), byId.get(5)];
    // North is up and east is right: München south of Berlin, Hamburg west of Berlin.
    expect(munich && berlin && munich.y > berlin.y).toBe(true);
    expect(hamburg && berlin && hamburg.x < berlin.x).toBe(true);
    for (const marker of map?.markers ?? []) {
      expect(marker.x).toBeGreaterThanOrEqual(0);
      expect(marker.x).toBeLessThanOrEqual(map?.width ?? 0);
    }
  });

  it("sends logged-in members to the members area", async () => {
    const error = await load("gallery", "en", undefined, services({ id: 1 } as unknown as User).fake).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).headers.get("location")).toBe("/members");
  });
});
