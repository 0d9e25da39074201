import { signupsEnabled } from "@app/contract";
import { useIntl } from "react-intl";
import { useNavigate } from "react-router";
import { pageMiddleware } from "../lib/page-middleware";
import { useRootData } from "../lib/root-data";
import { PageTitle } from "../ui/page-title";
import { InviteOnly, SignupFlow } from "./signup-flow";

/** Spec §2 redirects: visitors only (a member is sent to the members search). */
export const middleware = pageMiddleware("guest");

/** Spec §2: logged-in members visiting signup go to members. */
// Nothing to load: the loader makes a client-side navigation ask the server, whose middleware guards the page.
export async function loader() {
  return null;
}

/** /signup: the signup flow as a page (smartphones; desktop opens it as a modal from home). */
export default function Signup() {
  const intl = useIntl();
  const root = useRootData();
  const navigate = useNavigate();
  if (!root) return null;
  const title = intl.formatMessage({ id: "signup.title" });
  return (
    <section className="container py-4" style={{ maxWidth: 640 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-3">{title}</h1>
      {signupsEnabled(root.settings, root.hasTrafficSource) ? (
        // api_signup_complete: the activation reminder shows as a modal on a smartphone (spec §2).
        <SignupFlow onFinish={() => navigate("/members?api_signup_complete=1")} />
      ) : (
        <InviteOnly />
      )}
    </section>
  );
}
