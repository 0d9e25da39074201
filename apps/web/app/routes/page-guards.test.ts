// @vitest-environment node
import type { User } from "@app/contract";
import type { MiddlewareFunction } from "react-router";
import { describe, expect, it } from "vitest";
import { testUser } from "../features/account/test-users";
import { fakeSsrServices } from "../lib/fake-ssr-services";
import { createLoadContext } from "../server-context";
import * as completeSignup from "./complete-signup";
import * as credits from "./credits";
import * as checkout from "./credits-checkout";
import * as home from "./home";
import * as likes from "./likes";
import * as likesIndex from "./likes-index";
import * as login from "./login";
import * as matchFinder from "./match-finder";
import * as memberSignup from "./member-signup";
import * as notifications from "./notifications";
import * as premium from "./premium";
import * as profile from "./profile";
import * as settings from "./settings";
import * as signup from "./signup";
import * as signupMatches from "./signup-matches";
import * as swipeGame from "./swipe-game";
import * as visitors from "./visitors";

/** Pages for members only and pages for visitors only (spec §2 redirects), by path. */
const MEMBER_PAGES = {
  "/complete-signup": completeSignup,
  "/credits": credits,
  "/credits/2": checkout,
  // /likes is its own route module (likes-index.tsx, re-exporting likes.tsx): each must carry the guard.
  "/likes": likesIndex,
  "/likes/received": likes,
  "/match-finder": matchFinder,
  "/notifications": notifications,
  "/premium": premium,
  "/profile": profile,
  "/settings": settings,
  "/signup-matches": signupMatches,
  "/swipe-game": swipeGame,
  "/visitors": visitors,
};
const GUEST_PAGES = { "/": home, "/login": login, "/signup": signup, "/members/42/signup": memberSignup };

/**
 * Runs only a page's middleware (never its loader) for a request with or without a member, as the server
 * does before any loader: where it redirects, or null when the page may be shown.
 */
async function guardOf(page: { middleware?: MiddlewareFunction[] }, path: string, user: User | null) {
  const context = createLoadContext(fakeSsrServices({ currentUser: async () => user }));
  const args = { request: new Request(`http://x${path}`), params: {}, context };
  try {
    for (const run of page.middleware ?? []) await run(args as never, async () => undefined as never);
    return null;
  } catch (error) {
    return error instanceof Response ? error.headers.get("location") : `threw ${String(error)}`;
  }
}

describe("page middleware (spec §8): the guards run before the loaders", () => {
  it("sends a visitor from every members-only page to the login, and lets a member in", async () => {
    for (const [path, page] of Object.entries(MEMBER_PAGES)) {
      expect([path, await guardOf(page, path, null)]).toEqual([path, "/login"]);
      expect([path, await guardOf(page, path, testUser())]).toEqual([path, null]);
    }
  });

  it("sends a member from every visitors-only page to the members search, and lets a visitor in", async () => {
    for (const [path, page] of Object.entries(GUEST_PAGES)) {
      expect([path, await guardOf(page, path, testUser())]).toEqual([path, "/members"]);
      expect([path, await guardOf(page, path, null)]).toEqual([path, null]);
    }
  });
});
