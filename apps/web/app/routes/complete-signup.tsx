import { useIntl } from "react-intl";
import { redirect, useNavigate } from "react-router";
import type { RouteHandle } from "../lib/route-handle";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/complete-signup";
import { SignupFlow } from "./signup-flow";

export const handle: RouteHandle = { hideEntryWarning: true };

export async function loader({ context }: Route.LoaderArgs) {
  if (!(await context.get(servicesContext).currentUser())) throw redirect("/login");
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
