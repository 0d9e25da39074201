import { isLocaleCode } from "@app/contract";
import { MESSAGES_VERSION, messagesJson } from "../i18n/messages.server";
import type { Route } from "./+types/i18n-messages";

/**
 * GET /i18n/:locale?v=<version>: a locale's precompiled messages for the browser (lib/messages.ts,
 * decision 027). Cached for a year when the version is the current one (a new catalogue has a new
 * URL); any other version is answered fresh and not cached.
 */
export function loader({ params, request }: Route.LoaderArgs) {
  if (!isLocaleCode(params.locale)) throw new Response("Not found", { status: 404 });
  const current = new URL(request.url).searchParams.get("v") === MESSAGES_VERSION;
  return new Response(messagesJson(params.locale), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": current ? "public, max-age=31536000, immutable" : "no-cache",
    },
  });
}
