import { parseIdParam, signupsEnabled } from "@app/contract";
import { createIntl } from "react-intl";
import { data, redirect } from "react-router";
import { type LandingMember, MemberLanding } from "../features/member-landing/member-landing";
import { landingDesign, landingVariant } from "../features/member-landing/variants";
import { messagesFor } from "../i18n/messages.server";
import { resolveLocale } from "../lib/locale.server";
import { useRootData } from "../lib/root-data";
import type { RouteHandle } from "../lib/route-handle";
import { servicesContext } from "../server-context";
import { LegalLinks } from "../ui/legal-links";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/member-landing";

/**
 * /members/{id}/landing, /members/{id}/landing2/{slug?} and /members/{id}/landing3/{slug?} (spec §2):
 * campaign pages about one member for visitors. A member who does not exist, or whom a visitor may not
 * see (hidden, deleted, blocked), is a 404; a logged-in member goes to the profile itself.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const id = parseIdParam(params.id);
  if (id === null) throw data(null, { status: 404 });
  const services = context.get(servicesContext);
  if (await services.currentUser()) throw redirect(`/members/${id}`);
  const [answer, { locale }] = await Promise.all([services.member(id), resolveLocale(request, services)]);
  if (!answer || "blocked_by" in answer) throw data(null, { status: 404 });
  const { profile } = answer;
  const design = landingDesign(new URL(request.url).pathname);
  const variant = design === "landing" ? landingVariant(undefined) : landingVariant(params.slug);
  const photo = profile.main_image?.status === "active" ? profile.main_image.url : null;
  const member: LandingMember = {
    id: profile.id,
    name: profile.name,
    age: profile.age,
    city: profile.city,
    fictional: profile.fictional,
    photo,
    photos: profile.photos
      .filter((p) => !p.locked && p.url !== null && p.url !== photo)
      .slice(0, 3)
      .map((p) => p.thumb_url),
  };
  const intl = createIntl({ locale, defaultLocale: "en", messages: messagesFor(locale) });
  return {
    member,
    design,
    variant,
    title: intl.formatMessage({ id: "signup.via_profile_title" }, { name: profile.name }),
    description: intl.formatMessage({ id: "memberLanding.description" }, { name: profile.name, age: profile.age }),
  };
}

/** The page's own meta description replaces the site's. */
export const handle: RouteHandle = { ownDescription: true, startOnIntent: true };

/**
 * Campaign pages stay out of search engines: they repeat a member's profile for advertising, and a
 * member's name should not be found through them.
 */
export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [
    { name: "description", content: loaderData.description },
    { name: "robots", content: "noindex" },
    { property: "og:title", content: loaderData.title },
    ...(loaderData.member.photo ? [{ property: "og:image", content: loaderData.member.photo }] : []),
  ];
}

export default function MemberLandingRoute({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  if (!root) return null;
  const { settings } = root;
  const numCredits = settings.signup_credits;
  const numMessages = settings.message_credits > 0 ? Math.floor(numCredits / settings.message_credits) : 0;
  return (
    <div className="py-4 py-md-5">
      <PageTitle title={loaderData.title} />
      <MemberLanding
        member={loaderData.member}
        design={loaderData.design}
        variant={loaderData.variant}
        siteName={settings.name}
        numMessages={numMessages}
        numCredits={numCredits}
        signupsOpen={signupsEnabled(settings, root.hasTrafficSource)}
        fictionalIcon={settings.fictional_icon}
        fictionalWarning={settings.fictional_warning}
      />
      <LegalLinks className="member-landing-legal small text-center mt-5" />
    </div>
  );
}
