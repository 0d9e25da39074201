import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import { type SiteService, selectedCountryFromQuery } from "./service.ts";

export interface SiteRoutesOptions {
  site: SiteService;
  geoipCountry(request: FastifyRequest): string | null;
}

/**
 * The public site calls of spec §7: settings, company info, interests and regions. Answers are typed by
 * the contract and serialised through its response schemas.
 */
export async function siteRoutes(app: FastifyInstance, { site, geoipCountry }: SiteRoutesOptions): Promise<void> {
  handle(app, ENDPOINTS.settings, async ({ request, reply, query }) => {
    const host = requestHost(request);
    const { overrides } = await site.siteFor(host);
    const settings = await site.settings({
      host,
      locale: requestLocale(request),
      geoipCountry: geoipCountry(request),
      selectedCountry: selectedCountryFromQuery(query, overrides.countries),
    });
    reply.header("cache-control", "private, no-cache");
    return { settings };
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
