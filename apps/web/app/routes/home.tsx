import { searchVisible, signupsEnabled, type TeaserProfile } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { resolveLocale } from "../lib/locale.server";
import { hasTrafficSource } from "../lib/tracking";
import { useRootData } from "../root";
import { servicesContext } from "../server-context";
import { FictionalIcon } from "../ui/fictional-icon";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/home";

/** The teaser only goes to the browser when search may be shown (spec §4), never just hidden in it. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { locale } = await resolveLocale(request, services);
  const settings = await services.settings({ locale, query: {} });
  if (!searchVisible(settings, false, hasTrafficSource(request.headers.get("cookie")))) return { profiles: [] };
  return { profiles: await services.teaser({ limit: 12, countries: settings.countries }) };
}

function ProfileCard({ profile }: { profile: TeaserProfile }) {
  const intl = useIntl();
  const root = useRootData();
  return (
    <li className="col">
      <Link to={`/members/${profile.id}`} className="card profile-card border-0 shadow-sm text-white overflow-hidden h-100">
        {profile.main_image ? (
          <img
            src={profile.main_image.thumb_url}
            alt={intl.formatMessage({ id: "home.photo_alt" }, { name: profile.name })}
            className="card-img"
            loading="lazy"
            width={320}
            height={400}
          />
        ) : (
          <div className="card-img bg-secondary-subtle" style={{ aspectRatio: "4 / 5" }} />
        )}
        <div className="card-img-overlay p-2">
          <p className="card-title fw-semibold mb-0">
            {profile.name}
            {profile.fictional && root ? <FictionalIcon name={root.settings.fictional_icon} labelled className="ms-1" /> : null}
          </p>
          <p className="card-text small mb-0">
            <FormattedMessage
              id={profile.city ? "home.age_city" : "home.age_only"}
              values={{ age: profile.age, city: profile.city }}
            />
          </p>
        </div>
      </Link>
    </li>
  );
}

const STEPS = [
  ["home.step1_title", "home.step1_body", "1"],
  ["home.step2_title", "home.step2_body", "2"],
  ["home.step3_title", "home.step3_body", "3"],
] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const root = useRootData();
  if (!root) return null;
  const { settings } = root;
  const loggedIn = root.user !== null;
  const canSignup = signupsEnabled(settings, root.hasTrafficSource);
  const showSearch = searchVisible(settings, loggedIn, root.hasTrafficSource);
  return (
    <>
      <PageTitle title={intl.formatMessage({ id: "title.home" })} />
      <section className="app-hero py-5">
        <div className="container py-lg-4">
          <h1 className="display-5 fw-bold">{settings.index_title}</h1>
          <p className="lead my-4">{settings.description}</p>
          {canSignup ? (
            <div className="d-flex flex-wrap gap-2">
              <Link to="/signup" className="btn btn-light btn-lg fw-semibold text-primary">
                <FormattedMessage id="home.cta_signup" />
              </Link>
              <Link to="/login" className="btn btn-outline-light btn-lg">
                <FormattedMessage id="home.cta_login" />
              </Link>
            </div>
          ) : (
            <div className="alert alert-light" role="status">
              <FormattedMessage id="home.invite_only" />
            </div>
          )}
        </div>
      </section>

      {showSearch ? (
        <section className="container py-5" aria-labelledby="teaser-heading">
          <div className="d-flex justify-content-between align-items-baseline mb-3">
            <h2 id="teaser-heading" className="h3 mb-0">
              <FormattedMessage id="home.teaser_title" />
            </h2>
            <Link to="/members">
              <FormattedMessage id="home.teaser_more" />
            </Link>
          </div>
          {loaderData.profiles.length ? (
            <ul className="row row-cols-2 row-cols-sm-3 row-cols-lg-6 g-3 list-unstyled">
              {loaderData.profiles.map((profile) => (
                <ProfileCard key={profile.id} profile={profile} />
              ))}
            </ul>
          ) : (
            <p className="text-body-secondary">
              <FormattedMessage id="home.teaser_empty" />
            </p>
          )}
        </section>
      ) : null}

      <section className="container py-4" aria-labelledby="steps-heading">
        <h2 id="steps-heading" className="h3 mb-4">
          <FormattedMessage id="home.steps_title" />
        </h2>
        <ol className="row g-4 list-unstyled">
          {STEPS.map(([title, body, n]) => (
            <li key={n} className="col-md-4">
              <div className="d-flex gap-3">
                <span
                  className="step-icon rounded-circle bg-primary text-white d-flex align-items-center justify-content-center fw-bold flex-shrink-0"
                  aria-hidden="true"
                >
                  {n}
                </span>
                <div>
                  <h3 className="h5">
                    <FormattedMessage id={title} />
                  </h3>
                  <p className="text-body-secondary mb-0">
                    <FormattedMessage id={body} />
                  </p>
                </div>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section className="container py-4">
        <div className="p-4 bg-body rounded-3 shadow-sm">
          <h2 className="h4">
            <FormattedMessage id="home.privacy_title" />
          </h2>
          <p className="mb-0 text-body-secondary">
            <FormattedMessage id="home.privacy_body" />
          </p>
        </div>
      </section>
    </>
  );
}
