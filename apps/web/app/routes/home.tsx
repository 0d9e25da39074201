import { searchVisible, signupsEnabled } from "@app/contract";
import { lazy, type MouseEvent, Suspense, useCallback, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useNavigate } from "react-router";
import { NEEDS_APP, NEEDS_APP_ON_DESKTOP } from "../lib/deferred-scripts";
import { useMountedOnceActive } from "../lib/lazy";
import { isSmartphone } from "../lib/media";
import { pageMiddleware } from "../lib/page-middleware";
import { useRootData } from "../lib/root-data";
import type { RouteHandle } from "../lib/route-handle";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import { ProfileGrid } from "../ui/profile-card";
import type { Route } from "./+types/home";

/** The signup modal and its form load when first wanted, not with the page (issue #13). */
const loadSignupFlow = () => import("./signup-flow");
const SignupModal = lazy(() => loadSignupFlow().then((m) => ({ default: m.SignupModal })));
/** Pointing at or focusing the button starts the download, so that the modal opens without a wait. */
const prefetchSignup = () => void loadSignupFlow().catch(() => {});

/** A visitor's home page loads the app when the visitor reaches for a control (decision 028). */
export const handle: RouteHandle = { startOnIntent: true };

/** Spec §2 redirects: visitors only (a member is sent to the members search). */
export const middleware = pageMiddleware("guest");

/**
 * Spec §2: home → members for a logged-in member. The teaser only goes to the browser when search may
 * be shown (spec §4), never just hidden in it.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  // Empty where the logged-out search rule (spec §4) hides members from this visitor (decided on the server).
  return { profiles: await services.teaser({ limit: 12 }) };
}

const STEPS = [
  ["home.step1_title", "home.step1_body", "1"],
  ["home.step2_title", "home.step2_body", "2"],
  ["home.step3_title", "home.step3_body", "3"],
] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const root = useRootData();
  const navigate = useNavigate();
  const [signupOpen, setSignupOpen] = useState(false);
  const signupMounted = useMountedOnceActive(signupOpen);
  const closeSignup = useCallback(() => setSignupOpen(false), []);
  const finishSignup = useCallback(() => {
    setSignupOpen(false);
    void navigate("/members");
  }, [navigate]);
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
              <Link
                to="/signup"
                className="btn btn-light btn-lg fw-semibold text-primary"
                onPointerEnter={prefetchSignup}
                onFocus={prefetchSignup}
                {...{ [NEEDS_APP]: NEEDS_APP_ON_DESKTOP }}
                onClick={(event: MouseEvent) => {
                  // Spec §2: a modal on desktop, the /signup route on smartphones (and without script).
                  if (isSmartphone() || event.metaKey || event.ctrlKey || event.shiftKey) return;
                  event.preventDefault();
                  setSignupOpen(true);
                }}
              >
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
      {canSignup && signupMounted ? (
        <Suspense fallback={null}>
          <SignupModal show={signupOpen} onHide={closeSignup} onFinish={finishSignup} />
        </Suspense>
      ) : null}

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
            <ProfileGrid profiles={loaderData.profiles} />
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
