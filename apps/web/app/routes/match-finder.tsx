import { FormattedMessage, useIntl } from "react-intl";
import { Link, redirect } from "react-router";
import { pageMiddleware } from "../lib/page-middleware";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import { ProfileCard } from "../ui/profile-card";
import type { Route } from "./+types/match-finder";

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

/** /match-finder: suggestions fitted to the member's own profile (see ProfileService.matchFinder). */
export async function loader({ context }: Route.LoaderArgs) {
  const matches = await context.get(servicesContext).matchFinder();
  if (!matches) throw redirect("/login");
  return matches;
}

export default function MatchFinder({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const { profiles, criteria } = loaderData;
  const title = intl.formatMessage({ id: "title.match_finder" });
  return (
    <section className="container py-4">
      <PageTitle title={title} />
      <h1 className="h2">{title}</h1>
      <p className="text-body-secondary">
        <FormattedMessage
          id="matchfinder.intro"
          values={{ gender: criteria.gender ?? "any", min_age: criteria.min_age, max_age: criteria.max_age }}
        />{" "}
        <Link to="/members" className="text-decoration-underline">
          <FormattedMessage id="matchfinder.refine" />
        </Link>
      </p>
      {profiles.length ? (
        <ul className="row row-cols-2 row-cols-sm-3 row-cols-lg-6 g-3 list-unstyled">
          {profiles.map((profile) => (
            <ProfileCard key={profile.id} profile={profile} />
          ))}
        </ul>
      ) : (
        <p>
          <FormattedMessage id="matchfinder.empty" />
        </p>
      )}
    </section>
  );
}
