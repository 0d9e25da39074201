// @vitest-environment node
import { LOCALE_CODES, type MemberResponse, type SsrServices, type User } from "@app/contract";
import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { testMemberResponse } from "../features/profile/test-profiles";
import { createLoadContext } from "../server-context";
import { loader, meta } from "./member-landing";

const anna = testMemberResponse({ city: "Utrecht" });

function context(options: { user?: Partial<User>; member?: MemberResponse } = {}) {
  const fake = {
    mode: "test",
    nonce: "n",
    geoipCountry: null,
    currentUser: async () => (options.user ?? null) as User | null,
    banNotice: async () => null,
    currentStaff: async () => null,
    domainLanguage: async () => null,
    settings: async () => {
      throw new Error("not used");
    },
    companyInfo: async () => {
      throw new Error("not used");
    },
    teaser: async () => [],
    member: async (id: number) => (id === 42 ? (options.member ?? anna) : id === 43 ? { blocked_by: "Bea" } : null),
    matchFinder: async () => null,
    visitors: async () => null,
    swipeCandidates: async () => null,
    badges: async () => null,
    timeBonus: async () => null,
    welcomeDiscount: async () => null,
    regions: () => ({ regions: {} }),
    regionName: () => null,
    searchMembers: async () => null,
    bundles: async () => {
      throw new Error("not on these pages");
    },
    cityCentre: async () => null,
  } satisfies SsrServices;
  return createLoadContext(fake);
}

function load(path: string, options: { locale?: string; user?: Partial<User>; member?: MemberResponse } = {}) {
  const [, , id, , slug] = path.split("/");
  return loader({
    request: new Request(`http://localhost${path}`, { headers: { cookie: `i18n_redirected=${options.locale ?? "en"}` } }),
    params: { id, slug },
    context: context(options),
  } as unknown as Parameters<typeof loader>[0]);
}

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof Response) return error.status;
  return isRouteErrorResponse(error) ? error.status : (error as { init?: ResponseInit } | undefined)?.init?.status;
}

describe("member landings", () => {
  it("show the member as a visitor may see them, in the design the path names", async () => {
    const page = await load("/members/42/landing2/date");
    expect(page.design).toBe("landing2");
    expect(page.variant).toBe("date");
    expect(page.member).toEqual({
      id: 42,
      name: "Anna",
      age: 34,
      city: "Utrecht",
      fictional: false,
      photo: "/cdn/1.jpg",
      // The main photo is not repeated, and a locked photo never reaches the page.
      photos: ["/cdn/2-thumb.jpg"],
    });
    expect(page.title).toBe("Sign up to chat with Anna");
    expect((await load("/members/42/landing")).design).toBe("landing");
    expect((await load("/members/42/landing3")).design).toBe("landing3");
  });

  it("fall back to the default angle for an unknown campaign slug", async () => {
    expect((await load("/members/42/landing3/no-such-campaign")).variant).toBe("chat");
    expect((await load("/members/42/landing2/nearby")).variant).toBe("nearby");
  });

  it("never show a main photo that is not approved yet", async () => {
    const pending = {
      ...anna,
      profile: { ...anna.profile, main_image: { thumb_url: "/cdn/1-thumb.jpg", url: "/cdn/1.jpg", status: "pending" as const } },
    };
    expect((await load("/members/42/landing", { member: pending })).member.photo).toBeNull();
  });

  it("answer 404 for unknown, hidden or blocked members and malformed ids", async () => {
    expect(await statusOf(load("/members/99/landing"))).toBe(404);
    expect(await statusOf(load("/members/43/landing2"))).toBe(404);
    expect(await statusOf(load("/members/abc/landing3"))).toBe(404);
  });

  it("send a logged-in member to the profile itself", async () => {
    const error = await load("/members/42/landing", { user: { id: 7 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).headers.get("location")).toBe("/members/42");
  });

  it("read in each of the seven languages and stay out of search engines", async () => {
    const pages = await Promise.all(LOCALE_CODES.map((locale) => load("/members/42/landing2", { locale })));
    expect(new Set(pages.map((page) => page.title)).size).toBe(LOCALE_CODES.length);
    expect(new Set(pages.map((page) => page.description)).size).toBe(LOCALE_CODES.length);
    const tags = meta({ loaderData: pages[0] } as Parameters<typeof meta>[0]);
    expect(tags).toContainEqual({ name: "robots", content: "noindex" });
  });
});
