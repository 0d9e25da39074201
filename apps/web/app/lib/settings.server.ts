import type { Settings, SsrServices } from "@app/contract";
import { resolveLocale } from "./locale.server";

/** The site's settings in the request's locale, for route loaders (the root loader has its own copy). */
export async function settingsFor(request: Request, services: SsrServices): Promise<Settings> {
  const { locale } = await resolveLocale(request, services);
  return services.settings({ locale, query: {} });
}
