import { ENDPOINTS, type Settings } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import type { SiteService } from "../site/service.ts";
import type { LikeService } from "./service.ts";

/** Writes per client address (IPv6 per /64): a person swiping fast stays far below it, a script does not. */
const WRITE_LIMIT = { max: 120, timeWindow: "1 minute" };
/** The automatic like is asked once a session; more than this is not a browser. */
const AUTO_LIKE_LIMIT = { max: 20, timeWindow: "1 minute" };

const showsCity = (settings: Pick<Settings, "visible_profile_fields">) =>
  (settings.visible_profile_fields as readonly string[]).includes("city");

/** Likes, the automatic like and the swipe game (see the contract's likes.ts). */
export async function likeRoutes(
  app: FastifyInstance,
  { likes, site }: { likes: LikeService; site: SiteService },
): Promise<void> {
  const settingsOf = (request: FastifyRequest) => site.settingsFor(requestHost(request), requestLocale(request));

  handle(app, ENDPOINTS.likes, async ({ request, member, query }) =>
    likes.list(member, query.type, query.page ?? 1, showsCity(await settingsOf(request))),
  );

  handle(app, ENDPOINTS.like, async ({ member, body }) => likes.like(member, body.id), { rateLimit: WRITE_LIMIT });

  handle(app, ENDPOINTS.unlike, async ({ member, query }) => likes.unlike(member, query.id), { rateLimit: WRITE_LIMIT });

  handle(
    app,
    ENDPOINTS.autoLike,
    async ({ request, member }) => ({ profile: await likes.autoLike(member, (await settingsOf(request)).countries) }),
    { rateLimit: AUTO_LIKE_LIMIT },
  );

  handle(app, ENDPOINTS.swipeCandidates, async ({ request, member, query }) => {
    const settings = await settingsOf(request);
    return likes.swipeCandidates(member, query.tz, settings.countries, showsCity(settings));
  });

  handle(app, ENDPOINTS.swipe, async ({ member, body }) => likes.swipe(member, body), { rateLimit: WRITE_LIMIT });
}
