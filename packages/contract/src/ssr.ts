import type { User } from "./accounts.ts";
import type { CheckoutDiscounts, DiscountCodeResponse, TimeBonusResponse } from "./discounts.ts";
import type { BadgesResponse, SwipeResponse } from "./likes.ts";
import type { LocaleCode } from "./locales.ts";
import type { MatchFinderResponse, MemberResponse, MemberSearchQuery, MemberSearchResponse } from "./members.ts";
import type { BanNotice } from "./moderation.ts";
import type { BundlesResponse, PaymentMethod } from "./payments.ts";
import type { Settings } from "./settings.ts";
import type { CompanyInfo, RegionsResponse, TeaserProfile } from "./site.ts";
import type { StaffContext } from "./staff.ts";
import type { VisitorsResponse } from "./visits.ts";

/**
 * What the Fastify process hands to the server-rendered web app for one request (React Router's load
 * context). Loaders call these instead of making HTTP calls to their own server.
 */
export interface SsrServices {
  mode: "development" | "production" | "test";
  /** CSP nonce of this response: every inline script must carry it. */
  nonce: string;
  geoipCountry: string | null;
  /** The logged-in member of this request (session cookie), or null. */
  currentUser(): Promise<User | null>;
  /** The ban behind this browser's ended session, while in force (issue #27: /pages/ban shows it). */
  banNotice(): Promise<BanNotice | null>;
  /** The staff member of this request (the console's own cookie, issue #27), or null. Never a member. */
  currentStaff(): Promise<StaffContext | null>;
  domainLanguage(): Promise<LocaleCode | null>;
  settings(input: { locale: LocaleCode; query: Record<string, string> }): Promise<Settings>;
  companyInfo(): Promise<CompanyInfo>;
  /**
   * Newest visible members with a public photo, from the site's countries; none where the logged-out
   * search rule (spec §4) hides members from this visitor.
   */
  teaser(input: { limit: number }): Promise<TeaserProfile[]>;
  /**
   * One member's profile as this request's asker may see it; null when it does not exist or is hidden;
   * `blocked_by` (the member's name) when that member blocked the asker.
   */
  member(id: number): Promise<MemberResponse | { blocked_by: string } | null>;
  /**
   * The member search (GET /api/members.php) for this request's asker; null where the site's logged-out
   * search rule (spec §4) hides it from a visitor (the same rule as the API's, decided on the server).
   */
  searchMembers(query: MemberSearchQuery): Promise<MemberSearchResponse | null>;
  /** GET /api/bundles.php for this request (the credit packages, rendered on the server: issue #29). */
  bundles(): Promise<BundlesResponse>;
  /**
   * The logged-in member's discounts for the checkout of one bundle paid with `method` (issue #29: its
   * first screen rendered with the discount applied); null for visitors.
   */
  checkoutDiscounts(bundleId: number, method: PaymentMethod): Promise<CheckoutDiscounts | null>;
  /** Suggestions for the logged-in member (null for visitors). */
  matchFinder(): Promise<MatchFinderResponse | null>;
  /** Issue #29: a page of the logged-in member's profile visitors (GET /api/visitors.php); null for visitors. */
  visitors(page: number): Promise<VisitorsResponse | null>;
  /**
   * The swipe game's candidates and the day's status for the logged-in member (GET /api/swipe.php
   * without the browser's time zone); null for visitors. The page renders the game with them.
   */
  swipeCandidates(): Promise<SwipeResponse | null>;
  /**
   * Issue #29: what a member's first screen asks at once, rendered with the page instead (so the browser
   * needs neither the API client nor zod for it): GET /api/badges.php, /api/time-bonus.php and
   * /api/discountcode.php?welcome=true for the logged-in member, null for visitors.
   */
  badges(): Promise<BadgesResponse | null>;
  timeBonus(): Promise<TimeBonusResponse | null>;
  welcomeDiscount(): Promise<DiscountCodeResponse | null>;
  /** GET /api/regions.php's answer (every served country's regions). */
  regions(): RegionsResponse;
  /** The name of a region of a served country (GET /api/regions.php's), null when there is none such. */
  regionName(country: string, code: string): string | null;
  /**
   * The centre of a named city of a country (public gazetteer data, never a member's own position),
   * for the map lander; null when the city is not known.
   */
  cityCentre(country: string, city: string): Promise<{ lat: number; lon: number } | null>;
}
