import { FormattedMessage, useIntl } from "react-intl";
import { useSearchParams } from "react-router";
import { LoginForm } from "../features/account/login-form";
import { pageMiddleware } from "../lib/page-middleware";
import { FormAlert } from "../ui/form-alert";
import { PageTitle } from "../ui/page-title";

/** Spec §2 redirects: visitors only (a member is sent to the members search). */
export const middleware = pageMiddleware("guest");

/** Logged-in members have nothing to do here (spec §2: login → members). */
// Nothing to load: the loader makes a client-side navigation ask the server, whose middleware guards the page.
export async function loader() {
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
