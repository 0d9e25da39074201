import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { pageMiddleware } from "../lib/page-middleware";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import { ProfileGrid } from "../ui/profile-card";
import type { Route } from "./+types/signup-matches";

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  // The match finder's picks (what they seek, their age); the search's first page when it has none.
  // Both leave out the member and anyone in a block with them.
  const matches = (await services.matchFinder())?.profiles ?? [];
  const profiles = matches.length ? matches : ((await services.searchMembers({}))?.profiles ?? []);
  return { profiles: profiles.slice(0, 12) };
}

/** /signup-matches: members a new member may like, right after signing up. */
export default function SignupMatches({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "title.signup_matches" });
  return (
    <section className="container py-4">
      <PageTitle title={title} />
      <h1 className="h2">{title}</h1>
      <p className="text-body-secondary">
        <FormattedMessage id="signup.matches_intro" />
      </p>
      {loaderData.profiles.length ? (
        <ProfileGrid profiles={loaderData.profiles} />
      ) : (
        <p className="text-body-secondary">
          <FormattedMessage id="home.teaser_empty" />
        </p>
      )}
      <Link to="/members" className="btn btn-primary mt-3">
        <FormattedMessage id="signup.to_members" />
      </Link>
    </section>
  );
}
