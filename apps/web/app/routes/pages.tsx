import { createIntl } from "react-intl";
import { data } from "react-router";
import { BanNoticeAlert, banNoticeText } from "../features/pages/ban-notice";
import { renderPage } from "../features/pages/content.server";
import { InfoPage } from "../features/pages/info-page";
import { pageValues } from "../features/pages/placeholders";
import { isPageSlug, PAGE_TITLE_IDS } from "../features/pages/slugs";
import { messagesFor } from "../i18n/messages.server";
import { resolveLocale } from "../lib/locale.server";
import type { RouteHandle } from "../lib/route-handle";
import { servicesContext } from "../server-context";
import type { Route } from "./+types/pages";

/** Reading matter: a visitor loads the app only when reaching for a control (decision 028). */
export const handle: RouteHandle = { startOnIntent: true };

/** /pages/{slug} (spec §2): terms, privacy, cookies and the other information pages; other slugs are a 404. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const slug = params.slug;
  if (!isPageSlug(slug)) throw data(null, { status: 404, statusText: "Not Found" });
  const services = context.get(servicesContext);
  const { locale } = await resolveLocale(request, services);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const [settings, company, ban] = await Promise.all([
    services.settings({ locale, query }),
    services.companyInfo(),
    // Issue #27: a banned member's browser reads why on the ban policy.
    slug === "ban" ? services.banNotice() : null,
  ]);
  const html = await renderPage(slug, locale, pageValues(company, settings, locale));
  if (html === null) throw data(null, { status: 404, statusText: "Not Found" });
  const intl = createIntl({ locale, defaultLocale: "en", messages: messagesFor(locale) });
  return {
    slug,
    title: intl.formatMessage({ id: PAGE_TITLE_IDS[slug] }),
    html,
    ban: ban ? banNoticeText(ban, intl) : null,
  };
}

export default function PagesRoute({ loaderData }: Route.ComponentProps) {
  const { ban } = loaderData;
  return (
    <InfoPage
      key={loaderData.slug}
      title={loaderData.title}
      html={loaderData.html}
      notice={ban ? <BanNoticeAlert text={ban} /> : undefined}
    />
  );
}
