import { type CompanyInfo, type SettingsResponse, settingsQuerySchema } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { parseInput } from "../../platform/http/errors.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import { type SiteService, selectedCountryFromQuery } from "./service.ts";

export interface SiteRoutesOptions {
  site: SiteService;
  geoipCountry(request: FastifyRequest): string | null;
}

/**
 * The public site calls of spec §7: settings, company info, interests and regions. Answers are typed by
 * the contract at compile time; the tests check them against its schemas (not every request).
 */
export async function siteRoutes(app: FastifyInstance, { site, geoipCountry }: SiteRoutesOptions): Promise<void> {
  app.get("/api/settings.php", async (request, reply) => {
    const query = parseInput(settingsQuerySchema, request.query ?? {});
    const host = requestHost(request);
    const { overrides } = await site.siteFor(host);
    const settings = await site.settings({
      host,
      locale: requestLocale(request),
      geoipCountry: geoipCountry(request),
      selectedCountry: selectedCountryFromQuery(query, overrides.countries),
    });
    reply.header("cache-control", "private, no-cache");
    return { settings } satisfies SettingsResponse;
  });

  app.get("/api/companyinfo.php", async (request, reply) => {
    const company: CompanyInfo = await site.companyInfo(requestHost(request));
    reply.header("cache-control", "public, max-age=300");
    return { company };
  });

  app.get("/api/interests.php", async (request, reply) => {
    reply.header("cache-control", "public, max-age=3600").header("vary", "accept-language, cookie");
    return { interests: site.interests(requestLocale(request)) };
  });

  app.get("/api/regions.php", async (_request, reply) => {
    reply.header("cache-control", "public, max-age=86400");
    return { regions: site.regions() };
  });
}
