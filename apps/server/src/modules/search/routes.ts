import { ENDPOINTS, type MemberContext, type MemberSearchResponse } from "@app/contract";
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
  /** Issue #29: fills the cards' presence labels as `member` may see them (composed by the app). */
  labelled?: (member: MemberContext | null, result: MemberSearchResponse) => Promise<MemberSearchResponse>;
}

/** GET /api/members.php (the search) and GET /api/match-finder.php. */
export async function searchRoutes(
  app: FastifyInstance,
  { profiles, search, site, labelled }: SearchRoutesOptions,
): Promise<void> {
  const settingsOf = (request: FastifyRequest) => site.settingsFor(requestHost(request), requestLocale(request));

  // The logged-out search rule (spec §4) is the service's: the page loader gets the same answer.
  handle(app, ENDPOINTS.search, async ({ request, member, query }) => {
    const result = await search.searchFor(query, await profiles.askerOf(member), await settingsOf(request), {
      hasTrafficSource: hasTrafficSource(request),
    });
    return labelled ? labelled(member, result) : result;
  });

  handle(app, ENDPOINTS.matchFinder, async ({ request, member }) => search.matchFinder(member.userId, await settingsOf(request)));
}
