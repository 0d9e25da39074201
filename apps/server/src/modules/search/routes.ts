import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import { hasTrafficSource } from "../../platform/http/visitor.ts";
import type { ProfileService } from "../profiles/index.ts";
import type { SiteService } from "../site/service.ts";
import type { SearchService } from "./service.ts";

export interface SearchRoutesOptions {
  profiles: Pick<ProfileService, "askerOf">;
  search: SearchService;
  site: SiteService;
}

/** GET /api/members.php (the search) and GET /api/match-finder.php. */
export async function searchRoutes(app: FastifyInstance, { profiles, search, site }: SearchRoutesOptions): Promise<void> {
  const settingsOf = (request: FastifyRequest) => site.settingsFor(requestHost(request), requestLocale(request));

  // The logged-out search rule (spec §4) is the service's: the page loader gets the same answer.
  handle(app, ENDPOINTS.search, async ({ request, member, query }) => {
    // The cards' presence labels (issue #29) as the member may see them come with the page's statement.
    return search.searchFor(query, profiles.askerOf(member), await settingsOf(request), {
      hasTrafficSource: hasTrafficSource(request),
      viewer: member,
    });
  });

  handle(app, ENDPOINTS.matchFinder, async ({ request, member }) => search.matchFinder(member.userId, await settingsOf(request)));
}
