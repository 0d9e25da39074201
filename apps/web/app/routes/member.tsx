import { mayWriteTo, parseIdParam, signupsEnabled } from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { createIntl, FormattedMessage, useIntl } from "react-intl";
import { data, Link, useRevalidator } from "react-router";
import { BlockActions } from "../features/blocks/block-actions";
import { chatsQuery } from "../features/chat/api";
import { LikeActions, LoginToLike } from "../features/likes/like-actions";
import { ContactActions } from "../features/profile/contact-actions";
import { MemberView } from "../features/profile/member-view";
import { ReportProfile } from "../features/reports/report-dialog";
import { getRegions } from "../features/site/api";
import { messagesFor } from "../i18n/messages.server";
import { resolveLocale } from "../lib/locale.server";
import { useMember } from "../lib/member";
import { useRootData } from "../lib/root-data";
import type { RouteHandle } from "../lib/route-handle";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import { ProfileGrid } from "../ui/profile-card";
import type { Route } from "./+types/member";

const loadRegions = () => getRegions("all");

/**
 * /members/{id} and /likes/m/{id} (spec §2: the same screen): one member's profile as the asker may
 * see it. A member who does not exist or may not be seen is a 404.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const id = parseIdParam(params.id);
  if (id === null) throw data(null, { status: 404 });
  const services = context.get(servicesContext);
  const [answer, { locale }] = await Promise.all([services.member(id), resolveLocale(request, services)]);
  if (!answer) throw data(null, { status: 404 });
  const intl = createIntl({ locale, defaultLocale: "en", messages: messagesFor(locale) });
  if ("blocked_by" in answer) {
    // Spec §6: the blocked member learns why the page is closed to them, and nothing else.
    const blockedBy = { name: answer.blocked_by, title: intl.formatMessage({ id: "title.blocked" }) };
    return data({ kind: "blocked" as const, ...blockedBy }, { status: 403 });
  }
  const { name, age } = answer.profile;
  return { kind: "profile" as const, ...answer, title: intl.formatMessage({ id: "member.title" }, { name, age }) };
}

export const handle: RouteHandle = { backButton: true };

/** Social preview: the member's name and age, and the main image only once it is approved (spec §3). */
export function meta({ loaderData }: Route.MetaArgs) {
  if (loaderData?.kind !== "profile") return [];
  const image = loaderData.profile.main_image;
  return [
    { property: "og:type", content: "profile" },
    { property: "og:title", content: loaderData.title },
    ...(image?.status === "active" ? [{ property: "og:image", content: image.url }] : []),
  ];
}

/**
 * Visitors may look, but chatting, liking and gifts need an account (spec §6). One call to action
 * (issue #29: the like, message and gift buttons each opened a login prompt of their own beside this
 * box): signing up, to meet this member, where signups are open; logging in for those who have an
 * account is a plain link under it. Where signups are closed, logging in is the one button.
 */
function VisitorPrompt({ id, name }: { id: number; name: string }) {
  const root = useRootData();
  const canSignup = root ? signupsEnabled(root.settings, root.hasTrafficSource) : false;
  return (
    <div className="card card-body bg-body-secondary border-0 mb-4">
      <p className="mb-2">
        <FormattedMessage id={canSignup ? "member.visitor_signup_prompt" : "member.visitor_prompt"} values={{ name }} />
      </p>
      {canSignup ? (
        <>
          <div>
            <Link to={`/members/${id}/signup`} className="btn btn-primary">
              <FormattedMessage id="member.visitor_signup" values={{ name }} />
            </Link>
          </div>
          <p className="small mb-0 mt-2">
            <FormattedMessage
              id="member.visitor_login"
              values={{
                link: (chunks) => (
                  <Link to="/login" className="text-decoration-underline">
                    {chunks}
                  </Link>
                ),
              }}
            />
          </p>
        </>
      ) : (
        <div>
          <Link to="/login" className="btn btn-primary">
            <FormattedMessage id="nav.login" />
          </Link>
        </div>
      )}
    </div>
  );
}

/** What a member sees of a profile whose owner blocked them (spec §6). */
function BlockedNotice({ name, title }: { name: string; title: string }) {
  return (
    <div className="container py-5" style={{ maxWidth: 640 }}>
      <PageTitle title={title} />
      <h1 className="h3 mb-3">{title}</h1>
      <p className="lead">
        <FormattedMessage id="error.blocked_by" values={{ name }} />
      </p>
      <Link to="/members" className="btn btn-primary">
        <FormattedMessage id="block.back_to_search" />
      </Link>
    </div>
  );
}

export default function Member({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "blocked") return <BlockedNotice name={loaderData.name} title={loaderData.title} />;
  return <MemberPage {...loaderData} />;
}

function MemberPage({
  profile,
  related,
  title,
  blocked,
  like,
  presence,
}: Extract<Route.ComponentProps["loaderData"], { kind: "profile" }>) {
  const intl = useIntl();
  const root = useRootData();
  const { user } = useMember();
  const revalidator = useRevalidator();
  const own = user?.profile?.id === profile.id;
  // Spec §6: a free member past the conversation limit learns it here, not after typing (issue #29).
  const chats = useQuery({ ...chatsQuery, enabled: user !== null && !own });
  const limitReached = chats.data ? !mayWriteTo(chats.data.conversation_limit, profile.id) : false;
  return (
    <div className="profile-view py-4">
      <PageTitle title={title} />
      <MemberView
        // A new profile (a related card) starts with its own photo state.
        key={profile.id}
        profile={profile}
        loadRegions={loadRegions}
        fictionalIcon={root?.settings.fictional_icon ?? "masks"}
        fictionalWarning={root?.settings.fictional_warning ?? ""}
        notes={root?.settings.visible_profile_notes}
        presence={presence}
        actions={
          !user ? (
            <>
              <VisitorPrompt id={profile.id} name={profile.name} />
              <LoginToLike name={profile.name} button={false} />
            </>
          ) : own ? null : (
            <>
              {/* A block deletes the likes both ways, and no like reaches a member one has blocked. */}
              {blocked ? null : <ContactActions profile={profile} limitReached={limitReached} />}
              {blocked ? null : <LikeActions profile={profile} state={like} />}
              <BlockActions profile={profile} blocked={blocked} onChange={() => revalidator.revalidate()} />
              <ReportProfile profile={profile} />
            </>
          )
        }
      />
      {related.length > 0 ? (
        <section className="mt-5" aria-labelledby="related-heading">
          <h2 id="related-heading" className="h4 mb-3">
            {intl.formatMessage({ id: "member.related" }, { name: profile.name })}
          </h2>
          <ProfileGrid profiles={related} />
        </section>
      ) : null}
    </div>
  );
}
