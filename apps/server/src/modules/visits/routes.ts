import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import type { SiteService } from "../site/service.ts";
import type { VisitService } from "./service.ts";

/** GET /api/visitors.php (issue #29): the member's profile visitors (see the contract's visits.ts). */
export async function visitRoutes(
  app: FastifyInstance,
  { visits, site }: { visits: VisitService; site: SiteService },
): Promise<void> {
  handle(app, ENDPOINTS.visitors, async ({ request, member, query }) => {
    const settings = await site.settingsFor(requestHost(request), requestLocale(request));
    const showCity = (settings.visible_profile_fields as readonly string[]).includes("city");
    return visits.list(member, query.page ?? 1, showCity);
  });
}
