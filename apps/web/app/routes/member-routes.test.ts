// @vitest-environment node
import type { MemberResponse, MemberSearchQuery, Settings, SsrServices, User } from "@app/contract";
import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { testMemberResponse } from "../features/profile/test-profiles";
import { createLoadContext } from "../server-context";
import { loader as likesLoader } from "./likes";
import { loader as memberLoader, meta } from "./member";
import { loader as membersLoader } from "./members";
import { loader as swipeLoader } from "./swipe-game";

const anna = testMemberResponse({ photos: [], locked_photos: 0, photo_lock: null });

/** The host's services as loaders see them, with a search that records what it was asked. */
function services(options: { user?: Partial<User> | null; loggedOutSearch?: "all" | "none" } = {}) {
  const searches: MemberSearchQuery[] = [];
  const fake = {
    mode: "test",
    nonce: "n",
    geoipCountry: null,
    currentUser: async () => (options.user === undefined ? null : options.user) as User | null,
    banNotice: async () => null,
    currentStaff: async () => null,
    domainLanguage: async () => null,
    settings: async () =>
      ({ logged_out_search: options.loggedOutSearch ?? "all", logged_out_search_trafficsource: "none" }) as Settings,
    companyInfo: async () => {
      throw new Error("not used");
    },
    teaser: async () => [],
    member: async (id: number) => (id === 42 ? anna : id === 43 ? { blocked_by: "Bea" } : null),
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
    // The host decides the logged-out search rule (spec §4) and answers null where it hides the search.
    searchMembers: async (query: MemberSearchQuery) => {
      searches.push(query);
      if (options.loggedOutSearch === "none" && !options.user) return null;
      return { profiles: [], numResults: 0, numResultsCapped: false, page: 1, pages: 0, similar: [] };
    },
  } satisfies SsrServices;
  return { context: createLoadContext(fake), searches };
}

const args = (url: string, context: ReturnType<typeof createLoadContext>, params: Record<string, string> = {}, cookie = "") =>
  ({ request: new Request(url, { headers: { cookie } }), params, context }) as unknown as Parameters<typeof memberLoader>[0] &
    Parameters<typeof membersLoader>[0];

async function status(promise: Promise<unknown>): Promise<number | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    // A loader's `throw data(null, { status })` reaches the router as data with its response init.
    if (isRouteErrorResponse(error)) return error.status;
    const init = (error as { init?: ResponseInit | null }).init;
    return init?.status ?? -1;
  }
}

describe("/members/:id loader", () => {
  it("answers 404 for a malformed id and for a member the asker may not see", async () => {
    const { context } = services();
    expect(await status(memberLoader(args("http://x/members/abc", context, { id: "abc" })))).toBe(404);
    expect(await status(memberLoader(args("http://x/members/042", context, { id: "042" })))).toBe(404);
    expect(await status(memberLoader(args("http://x/members/7", context, { id: "7" })))).toBe(404);
  });

  it("gives the profile and its title, formatted in the request's locale", async () => {
    const { context } = services();
    const answer = await memberLoader(args("http://x/members/42", context, { id: "42" }, "i18n_redirected=de"));
    if (!("kind" in answer) || answer.kind !== "profile") throw new Error("expected the profile");
    expect(answer.profile.name).toBe("Anna");
    expect(answer.title).toBe("Anna, 34");
  });

  it("answers 403 with the blocker's name to a member they blocked (spec §6)", async () => {
    const { context } = services({ user: { id: 1 } });
    const answer = await memberLoader(args("http://x/members/43", context, { id: "43" }));
    expect(answer).toMatchObject({ type: "DataWithResponseInit", data: { kind: "blocked", name: "Bea" }, init: { status: 403 } });
  });
});

describe("/members/:id social preview", () => {
  const metaOf = (main_image: MemberResponse["profile"]["main_image"]) =>
    meta({ loaderData: { ...anna, kind: "profile", profile: { ...anna.profile, main_image }, title: "Anna, 34" } } as Parameters<
      typeof meta
    >[0]);

  it("uses the main image only when it is active", () => {
    expect(metaOf(anna.profile.main_image)).toContainEqual({ property: "og:image", content: "/cdn/1.jpg" });
    expect(metaOf(anna.profile.main_image)).toContainEqual({ property: "og:title", content: "Anna, 34" });
    const pending = metaOf({ thumb_url: "/cdn/1-thumb.jpg", url: "/cdn/1.jpg", status: "pending" });
    expect(pending.some((tag) => "property" in tag && tag.property === "og:image")).toBe(false);
    expect(metaOf(null).some((tag) => "property" in tag && tag.property === "og:image")).toBe(false);
  });
});

describe("/members loader", () => {
  it("searches with the member's defaults on a plain visit and with the URL otherwise", async () => {
    const member = { profile: { id: 7, name: "Sam", status: "active", gender: "male", seeking: "female", main_image: null } };
    const { context, searches } = services({ user: member as Partial<User> });
    const plain = await membersLoader(args("http://x/members", context));
    expect(plain).toMatchObject({ visible: true, query: { gender: "female" } });
    await membersLoader(args("http://x/members?gender=&country=NL&page=2", context));
    expect(searches).toEqual([{ gender: "female" }, { country: "NL", page: 2 }]);
  });

  it("sends no profile to a visitor when the host says logged-out search is off", async () => {
    const { context } = services({ loggedOutSearch: "none" });
    expect(await membersLoader(args("http://x/members", context))).toEqual({ visible: false });
  });
});

describe("/likes, /likes/:type and /swipe-game loaders (members area)", () => {
  const likesArgs = (url: string, context: ReturnType<typeof createLoadContext>, params: Record<string, string> = {}) =>
    ({ request: new Request(url), params, context }) as unknown as Parameters<typeof likesLoader>[0];
  const redirectOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
      return null;
    } catch (error) {
      return error instanceof Response ? error.headers.get("location") : null;
    }
  };

  it("sends visitors to the login", async () => {
    const { context } = services();
    expect(await redirectOf(likesLoader(likesArgs("http://x/likes", context)))).toBe("/login");
    expect(await redirectOf(likesLoader(likesArgs("http://x/likes/sent", context, { type: "sent" })))).toBe("/login");
    const swipeArgs = { request: new Request("http://x/swipe-game"), params: {}, context } as unknown as Parameters<
      typeof swipeLoader
    >[0];
    expect(await redirectOf(swipeLoader(swipeArgs))).toBe("/login");
  });

  it("shows the received tab at /likes, a named tab and page at /likes/:type, and 404 for an unknown type", async () => {
    const { context } = services({ user: { id: 1 } });
    expect(await likesLoader(likesArgs("http://x/likes", context))).toEqual({ type: "received", page: 1 });
    expect(await likesLoader(likesArgs("http://x/likes/matches?page=3", context, { type: "matches" }))).toEqual({
      type: "matches",
      page: 3,
    });
    expect(await likesLoader(likesArgs("http://x/likes/sent?page=x", context, { type: "sent" }))).toEqual({
      type: "sent",
      page: 1,
    });
    expect(await status(likesLoader(likesArgs("http://x/likes/friends", context, { type: "friends" })))).toBe(404);
  });
});
