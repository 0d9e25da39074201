import { searchVisible } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { settingsFor } from "../lib/settings.server";
import { hasTrafficSource } from "../lib/tracking";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import { ProfileGrid } from "../ui/profile-card";
import type { Route } from "./+types/members";

/**
 * /members, the post-login home: the newest members until search arrives. Visitors see it under the
 * logged-out search rule of spec §4; otherwise no profile reaches the browser.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const [user, settings] = await Promise.all([services.currentUser(), settingsFor(request, services)]);
  if (!searchVisible(settings, user !== null, hasTrafficSource(request.headers.get("cookie")))) {
    return { visible: false, profiles: [] };
  }
  return { visible: true, profiles: await services.teaser({ limit: 24, countries: settings.countries }) };
}

export default function Members({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "title.members" });
  return (
    <section className="container py-4">
      <PageTitle title={title} />
      <h1 className="h2 mb-3">{title}</h1>
      {!loaderData.visible ? (
        <div className="alert alert-info">
          <FormattedMessage
            id="auth.login_to_search"
            values={{
              login: (chunks) => <Link to="/login">{chunks}</Link>,
              signup: (chunks) => <Link to="/signup">{chunks}</Link>,
            }}
          />
        </div>
      ) : loaderData.profiles.length ? (
        <ProfileGrid profiles={loaderData.profiles} />
      ) : (
        <p className="text-body-secondary">
          <FormattedMessage id="home.teaser_empty" />
        </p>
      )}
    </section>
  );
}
