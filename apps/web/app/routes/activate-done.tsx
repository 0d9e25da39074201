import { useEffect } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { useMember } from "../lib/member";
import { PageTitle } from "../ui/page-title";

/** /activate/done: where the activation link lands after a successful activation. */
export default function ActivateDone() {
  const intl = useIntl();
  const { user, refresh } = useMember();
  const loggedIn = user !== null;
  // The status changed on the server: reload the member so the activation reminder disappears.
  useEffect(() => {
    if (loggedIn) void refresh().catch(() => {});
  }, [loggedIn, refresh]);
  const title = intl.formatMessage({ id: "title.activate_done" });
  return (
    <section className="container py-5 text-center" style={{ maxWidth: 560 }}>
      <PageTitle title={title} />
      <p className="display-4 text-success mb-2" aria-hidden="true">
        ✓
      </p>
      <h1 className="h2">{title}</h1>
      <p className="lead">
        <FormattedMessage id="activate.done_body" />
      </p>
      <Link to={loggedIn ? "/members" : "/login"} className="btn btn-primary btn-lg">
        <FormattedMessage id={loggedIn ? "activate.to_members" : "activate.to_login"} />
      </Link>
    </section>
  );
}
