import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { handle, type Preserialized, preserialize } from "../../platform/http/endpoint.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import { normaliseHost, type SiteContext, type SiteService, selectedCountryFromQuery } from "./service.ts";

/** Serialised settings kept per site context; the Host header is the visitor's, so the count is bounded. */
const SETTINGS_ANSWERS_PER_SITE = 512;

export interface SiteRoutesOptions {
  site: SiteService;
  geoipCountry(request: FastifyRequest): string | null;
}

/**
 * The public site calls of spec §7: settings, company info, interests and regions. Answers are typed by
 * the contract and serialised through its response schemas.
 */
export async function siteRoutes(app: FastifyInstance, { site, geoipCountry }: SiteRoutesOptions): Promise<void> {
  // Every page load asks for the settings, and they depend only on the site, the host, the language and
  // the countries: each combination is serialised once per site context (which a reload of the sites
  // replaces, so an edit is seen within SiteService's cache time), instead of once per request.
  const answers = new WeakMap<SiteContext, Map<string, Preserialized>>();
  handle(app, ENDPOINTS.settings, async ({ request, reply, query }) => {
    const host = requestHost(request);
    const context = await site.siteFor(host);
    const settingsRequest = {
      host,
      locale: requestLocale(request),
      geoipCountry: geoipCountry(request),
      selectedCountry: selectedCountryFromQuery(query, context.overrides.countries),
    };
    const key = `${normaliseHost(host)} ${settingsRequest.locale} ${settingsRequest.geoipCountry} ${settingsRequest.selectedCountry}`;
    let byKey = answers.get(context);
    if (!byKey) {
      byKey = new Map();
      answers.set(context, byKey);
    }
    let answer = byKey.get(key);
    if (!answer) {
      answer = preserialize(ENDPOINTS.settings, reply, { settings: await site.settings(settingsRequest) });
      if (byKey.size >= SETTINGS_ANSWERS_PER_SITE) byKey.clear();
      byKey.set(key, answer);
    }
    reply.header("cache-control", "private, no-cache");
    return answer;
  });

  handle(app, ENDPOINTS.companyInfo, async ({ request, reply }) => {
    const company = await site.companyInfo(requestHost(request));
    reply.header("cache-control", "public, max-age=300");
    return { company };
  });

  handle(app, ENDPOINTS.interests, async ({ request, reply }) => {
    reply.header("cache-control", "public, max-age=3600").header("vary", "accept-language, cookie");
    return { interests: site.interests(requestLocale(request)) };
  });

  handle(app, ENDPOINTS.regions, async ({ reply }) => {
    reply.header("cache-control", "public, max-age=86400");
    return { regions: site.regions() };
  });
}
