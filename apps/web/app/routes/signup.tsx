import { signupsEnabled } from "@app/contract";
import { useIntl } from "react-intl";
import { redirect, useNavigate } from "react-router";
import { useRootData } from "../lib/root-data";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/signup";
import { InviteOnly, SignupFlow } from "./signup-flow";

/** Spec §2: logged-in members visiting signup go to members. */
export async function loader({ context }: Route.LoaderArgs) {
  if (await context.get(servicesContext).currentUser()) throw redirect("/members");
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
