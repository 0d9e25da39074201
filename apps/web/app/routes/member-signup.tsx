import { parseIdParam, signupsEnabled } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { data, useNavigate } from "react-router";
import { pageMiddleware } from "../lib/page-middleware";
import { useRootData } from "../lib/root-data";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/member-signup";
import { InviteOnly, SignupFlow } from "./signup-flow";

/** Spec §2 redirects: visitors only (a member is sent to the members search). */
export const middleware = pageMiddleware("guest");

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = parseIdParam(params.id);
  if (id === null) throw data(null, { status: 404 });
  const services = context.get(servicesContext);
  // Spec §4: the wording names the profile; a profile a visitor may not see has no signup page.
  const answer = await services.member(id);
  if (!answer || "blocked_by" in answer) throw data(null, { status: 404 });
  return { id, name: answer.profile.name };
}

/** /members/{id}/signup: signing up from a profile, with the free-message allowance (spec §1, §4). */
export default function MemberSignup({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const root = useRootData();
  const navigate = useNavigate();
  if (!root) return null;
  const { settings } = root;
  const { id, name } = loaderData;
  const title = intl.formatMessage({ id: "signup.via_profile_title" }, { name });
  const numCredits = settings.signup_credits;
  const numMessages = settings.message_credits > 0 ? Math.floor(numCredits / settings.message_credits) : 0;
  return (
    <section className="container py-4" style={{ maxWidth: 640 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-3">{title}</h1>
      {signupsEnabled(settings, root.hasTrafficSource) ? (
        <SignupFlow
          viaProfile={{ id, name }}
          intro={
            numMessages > 0 ? (
              <p className="alert alert-success">
                <FormattedMessage id="signup.free_messages" values={{ numMessages, numCredits }} />
              </p>
            ) : null
          }
          onFinish={() => navigate("/members?api_signup_complete=1")}
        />
      ) : (
        <InviteOnly />
      )}
    </section>
  );
}
