import type { TeaserProfile } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import { useRootData } from "../../lib/root-data";
import { servicesContext } from "../../server-context";
import type { Route } from "./+types/socialnetwork";
import { LanderFooter, LanderHead, landerHandle, MemberPhoto, NoMembers, SignupCta } from "./kit";

export const handle = landerHandle;

/** /landers/socialnetwork/{slug?}: members' photos as posts of a feed; liking or commenting asks to sign up. */
export function loader({ context, request, params }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "socialnetwork", params.slug);
}

const POSTS = ["lander.socialnetwork.post_photo", "lander.socialnetwork.post_chat", "lander.socialnetwork.post_member"] as const;

/** A member's card as a post. Only what is true of the member: no invented counts or activity. */
function Post({ profile, index, site }: { profile: TeaserProfile; index: number; site: string }) {
  const id = POSTS[index % POSTS.length] ?? POSTS[0];
  const headingId = `ld-post-${profile.id}`;
  return (
    <article className="ld-post" aria-labelledby={headingId}>
      <h2 id={headingId} className="ld-post-head">
        <FormattedMessage id={id} values={{ name: profile.name, site }} />
      </h2>
      <MemberPhoto profile={profile} priority={index === 0} />
      <div className="ld-post-actions">
        <SignupCta className="btn btn-outline-primary btn-sm">
          <FormattedMessage id="lander.socialnetwork.like" />
        </SignupCta>
        <SignupCta className="btn btn-outline-secondary btn-sm">
          <FormattedMessage id="lander.socialnetwork.comment" />
        </SignupCta>
      </div>
    </article>
  );
}

export default function SocialNetwork({ loaderData: data }: Route.ComponentProps) {
  const intl = useIntl();
  const site = useRootData()?.settings.name ?? "";
  return (
    <div className="ld ld-social">
      <LanderHead data={data} />
      <div className="ld-social-layout">
        <aside className="ld-social-side">
          <h1>{data.headline}</h1>
          <p className="ld-lead">
            <FormattedMessage id="lander.socialnetwork.lead" />
          </p>
          <SignupCta />
        </aside>
        <section className="ld-feed" aria-label={intl.formatMessage({ id: "lander.socialnetwork.feed" })}>
          {data.profiles.length ? (
            data.profiles
              .slice(0, 6)
              .map((profile, index) => <Post key={profile.id} profile={profile} index={index} site={site} />)
          ) : (
            <NoMembers />
          )}
        </section>
      </div>
      <LanderFooter profiles={data.profiles} />
    </div>
  );
}
