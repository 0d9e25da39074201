import { FormattedMessage, useIntl } from "react-intl";
import { redirect, useSearchParams } from "react-router";
import { LoginForm } from "../features/account/login-form";
import { servicesContext } from "../server-context";
import { FormAlert } from "../ui/form-alert";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/login";

/** Logged-in members have nothing to do here (spec §2: login → members). */
export async function loader({ context }: Route.LoaderArgs) {
  if (await context.get(servicesContext).currentUser()) throw redirect("/members");
  return null;
}

/** /login; `?reactivated=1` after the reactivation link of a deleted account. */
export default function Login() {
  const intl = useIntl();
  const [params] = useSearchParams();
  const title = intl.formatMessage({ id: "title.login" });
  return (
    <section className="container py-5" style={{ maxWidth: 480 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-4">{title}</h1>
      {params.get("reactivated") === "1" ? (
        <FormAlert variant="success">
          <FormattedMessage id="login.reactivated" />
        </FormAlert>
      ) : null}
      <LoginForm />
    </section>
  );
}
