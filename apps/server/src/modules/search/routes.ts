import { type MatchFinderResponse, type MemberSearchResponse, memberSearchQuerySchema, searchVisible } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { parseInput } from "../../platform/http/errors.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import { requireUser } from "../accounts/http.ts";
import type { AccountService } from "../accounts/service.ts";
import { askerOf } from "../profiles/routes.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { SiteService } from "../site/service.ts";
import type { SearchService } from "./service.ts";

export interface SearchRoutesOptions {
  accounts: AccountService;
  profiles: ProfileService;
  search: SearchService;
  site: SiteService;
  hasTrafficSource(request: FastifyRequest): boolean;
}

/** GET /api/members.php (the search) and GET /api/match-finder.php. */
export async function searchRoutes(
  app: FastifyInstance,
  { accounts, profiles, search, site, hasTrafficSource }: SearchRoutesOptions,
): Promise<void> {
  const settingsOf = (request: FastifyRequest) =>
    site.settings({ host: requestHost(request), locale: requestLocale(request), geoipCountry: null, selectedCountry: null });

  // Spec §4: visitors only where the site's logged-out search rule allows it.
  app.get("/api/members.php", async (request): Promise<MemberSearchResponse> => {
    const query = parseInput(memberSearchQuerySchema, request.query ?? {});
    const asker = await askerOf(request, accounts, profiles);
    const settings = await settingsOf(request);
    if (!searchVisible(settings, asker !== null, hasTrafficSource(request))) throw new AppError("authentication_required");
    return search.search(query, asker, settings);
  });

  app.get("/api/match-finder.php", async (request): Promise<MatchFinderResponse> => {
    const user = await requireUser(request, accounts);
    return search.matchFinder(user.id, await settingsOf(request));
  });
}
