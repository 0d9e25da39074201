import { useIntl } from "react-intl";
import { useNavigate } from "react-router";
import { pageMiddleware } from "../lib/page-middleware";
import type { RouteHandle } from "../lib/route-handle";
import { PageTitle } from "../ui/page-title";
import { SignupFlow } from "./signup-flow";

export const handle: RouteHandle = { hideEntryWarning: true };

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

// Nothing to load: the loader makes a client-side navigation ask the server, whose middleware guards the page.
export async function loader() {
  return null;
}

/** /complete-signup: the steps after the account exists (e.g. after a reload during signup). */
export default function CompleteSignup() {
  const intl = useIntl();
  const navigate = useNavigate();
  const title = intl.formatMessage({ id: "title.complete_signup" });
  return (
    <section className="container py-4" style={{ maxWidth: 640 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-3">{title}</h1>
      <SignupFlow startAt="profile" onFinish={() => navigate("/members")} />
    </section>
  );
}
