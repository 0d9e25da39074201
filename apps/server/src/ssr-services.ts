import {
  type CheckoutDiscounts,
  ENDPOINTS,
  FORM_METHODS,
  LOCALE_CODES,
  type LocaleCode,
  type PaymentMethod,
  preselectedCode,
  SESSION_COOKIE,
  type SsrServices,
} from "@app/contract";
import type { FastifyRequest } from "fastify";
import type { BanService } from "./modules/accounts/index.ts";
import type { LocationService } from "./modules/location/service.ts";
import type { SearchService } from "./modules/search/service.ts";
import { type SiteService, selectedCountryFromQuery } from "./modules/site/service.ts";
import { staffOf } from "./modules/staff/http.ts";
import type { Config } from "./platform/config.ts";
import { AppError } from "./platform/errors.ts";
import { answerOf, memberOf } from "./platform/http/endpoint.ts";
import { requestHost } from "./platform/http/request-locale.ts";
import { hasTrafficSource } from "./platform/http/visitor.ts";

/**
 * What the server-rendered pages' loaders get for one request (the contract's SsrServices). Where a page
 * shows what an API call answers (the user, a member, the search, the match finder, the company), it asks
 * that call's own endpoint in process (`answerOf`): the same handler and rules, its answer cut to the
 * contract's response schema, so a page never holds a field the API would not send. The rest has no call
 * of its own: the settings in the page's language, the site's language, the home page's teaser, a city.
 */
export function ssrServices(
  services: {
    config: Pick<Config, "NODE_ENV">;
    site: SiteService;
    search: SearchService;
    location: LocationService;
    bans: Pick<BanService, "notice">;
  },
  geoipCountry: (request: FastifyRequest) => string | null,
): (request: FastifyRequest, nonce: string) => SsrServices {
  const { config, site, search, location } = services;
  return (request, nonce) => {
    const host = requestHost(request);
    return {
      mode: config.NODE_ENV,
      nonce,
      geoipCountry: geoipCountry(request),
      currentUser: async () => {
        try {
          return (await answerOf(request, ENDPOINTS.user)).user;
        } catch (error) {
          // A browser whose session a ban ended is a visitor to the pages (the ban page tells it why).
          if (error instanceof AppError && error.code === "account_banned") return null;
          throw error;
        }
      },
      banNotice: () => services.bans.notice(request.cookies[SESSION_COOKIE]),
      currentStaff: () => staffOf(request),
      domainLanguage: async () => {
        const { site: row } = await site.siteFor(host);
        return (LOCALE_CODES as readonly string[]).includes(row.domainLanguage ?? "") ? (row.domainLanguage as LocaleCode) : null;
      },
      // In the page's language (its path or the visitor's choice), which GET /api/settings.php cannot be told.
      settings: async ({ locale, query }) => {
        const { overrides } = await site.siteFor(host);
        return site.settings({
          host,
          locale,
          geoipCountry: geoipCountry(request),
          selectedCountry: selectedCountryFromQuery(query, overrides.countries),
        });
      },
      companyInfo: async () => (await answerOf(request, ENDPOINTS.companyInfo)).company,
      // The site's rules (countries, logged-out search) only; their texts are not used.
      teaser: async ({ limit }) =>
        search.teaserIfVisible({ limit }, await site.settingsFor(host, "en"), { hasTrafficSource: hasTrafficSource(request) }),
      member: async (id) => {
        try {
          return await answerOf(request, ENDPOINTS.member, { id });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          // The page says who blocked the asker (spec §6) instead of failing; a hidden member is no page.
          if (error.code === "blocked_by") return { blocked_by: String(error.params.name) };
          if (error.code === "not_found") return null;
          throw error;
        }
      },
      bundles: () => answerOf(request, ENDPOINTS.bundles),
      checkoutDiscounts: async (bundleId, method) =>
        (await memberOf(request)) ? checkoutDiscounts(request, bundleId, method) : null,
      matchFinder: async () => ((await memberOf(request)) ? answerOf(request, ENDPOINTS.matchFinder) : null),
      visitors: async (page) => ((await memberOf(request)) ? answerOf(request, ENDPOINTS.visitors, { page }) : null),
      // A member's first screen (issue #29): the same answers the browser would ask for at once.
      badges: async () => ((await memberOf(request)) ? answerOf(request, ENDPOINTS.badges) : null),
      timeBonus: async () => ((await memberOf(request)) ? answerOf(request, ENDPOINTS.timeBonus) : null),
      welcomeDiscount: async () =>
        (await memberOf(request)) ? answerOf(request, ENDPOINTS.discountCode, { welcome: "true" }) : null,
      regions: () => ({ regions: site.regions() }),
      regionName: (country, code) =>
        site.regions()[country as keyof ReturnType<SiteService["regions"]>]?.find((region) => region.code === code)?.name ?? null,
      swipeCandidates: async () => ((await memberOf(request)) ? answerOf(request, ENDPOINTS.swipeCandidates, {}) : null),
      cityCentre: async (country, city) => location.coordinatesOf(country, null, city),
      searchMembers: async (query) => {
        try {
          return await answerOf(request, ENDPOINTS.search, query);
        } catch (error) {
          // The logged-out search rule (spec §4) hides the search from this visitor: the page shows none.
          if (error instanceof AppError && error.code === "authentication_required") return null;
          throw error;
        }
      },
    };
  };
}

/** An answer, or null when the call refuses (an AppError: a code that does not apply, a failed welcome load). */
async function unlessRefused<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/**
 * The member's discounts at the checkout, from the calls the browser's checkout makes (the same handlers
 * and rules): the shown discount (the time bonus, else the welcome discount, spec §4), the usable codes,
 * and the pre-selected code checked for the bundle and method. Direct debit takes no code.
 */
async function checkoutDiscounts(request: FastifyRequest, bundleId: number, method: PaymentMethod): Promise<CheckoutDiscounts> {
  const { time_bonus } = await answerOf(request, ENDPOINTS.timeBonus);
  const welcome = time_bonus
    ? null
    : ((await unlessRefused(answerOf(request, ENDPOINTS.discountCode, { welcome: "true" })))?.discount ?? null);
  const shown = time_bonus
    ? { kind: "time_bonus" as const, code: time_bonus.code, value_percentage: time_bonus.value_percentage }
    : welcome && { kind: "welcome" as const, code: welcome.code, value_percentage: welcome.value_percentage };
  const { discounts: codes } = await answerOf(request, ENDPOINTS.discountCodes);
  const code = preselectedCode(shown, codes);
  if (code === null || FORM_METHODS.includes(method)) return { shown, codes, preselected: null };
  const answer = await unlessRefused(answerOf(request, ENDPOINTS.discountCode, { code, bundle_id: bundleId, method }));
  return { shown, codes, preselected: answer?.discount ? { code, bundle_id: bundleId, method, answer } : null };
}
