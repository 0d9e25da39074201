import { ENDPOINTS, type SendCosts, type Settings } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import type { SiteService } from "../site/service.ts";
import type { ChatService } from "./service.ts";

/** Sends per client address (IPv6 per /64): far above a person typing, far below a script. */
const SEND_LIMIT = { max: 120, timeWindow: "1 minute" };

/** What each kind of send costs (spec §9 settings), with the member's country's message price where set. */
export function sendCosts(settings: Settings, country: string | null): SendCosts {
  return {
    message: settings.message_credits,
    photo: settings.photo_credits,
    gift: settings.gift_credits,
    gif: settings.message_credits,
    minimum: (country && settings.minimum_message_costs[country as keyof typeof settings.minimum_message_costs]) || null,
  };
}

/** Text chat (see the contract's chats.ts, decision 020). */
export async function chatRoutes(app: FastifyInstance, { chat, site }: { chat: ChatService; site: SiteService }): Promise<void> {
  const settingsOf = (request: FastifyRequest) =>
    site.settings({ host: requestHost(request), locale: requestLocale(request), geoipCountry: null, selectedCountry: null });

  handle(app, ENDPOINTS.chats, async ({ member }) => chat.list(member));

  handle(app, ENDPOINTS.chat, async ({ request, member, query }) => {
    const settings = await settingsOf(request);
    return chat.open(member, query.id, query.before, sendCosts(settings, null));
  });

  handle(app, ENDPOINTS.deleteChat, async ({ member, query }) => chat.remove(member, query.id));

  handle(
    app,
    ENDPOINTS.message,
    async ({ request, member, body }) => {
      const settings = await settingsOf(request);
      // The answer carries the new balance; this request reads the member context no further.
      return chat.send(member, body, { cost: settings.message_credits, maxLength: settings.message_length });
    },
    { rateLimit: SEND_LIMIT },
  );
}
