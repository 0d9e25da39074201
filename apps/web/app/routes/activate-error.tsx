import { FormattedMessage, useIntl } from "react-intl";
import { Link, useSearchParams } from "react-router";
import { ResendActivationButton } from "../features/account/signup-steps";
import { useMember } from "../lib/member";
import { PageTitle } from "../ui/page-title";

/**
 * /activate/error: "Activation failed" (spec §8); a logged-in member can get a new link. The server
 * also lands here with `?reason=reactivation` when a reactivation link of a deleted account failed.
 */
export default function ActivateError() {
  const intl = useIntl();
  const { user } = useMember();
  const [params] = useSearchParams();
  const title = intl.formatMessage({ id: "activate.failed" });
  if (params.get("reason") === "reactivation") {
    return (
      <section className="container py-5" style={{ maxWidth: 560 }}>
        <PageTitle title={title} />
        <h1 className="h2">{title}</h1>
        <p>
          <FormattedMessage id="activate.reactivation_failed" />
        </p>
        <Link to="/login" className="btn btn-primary">
          <FormattedMessage id="activate.to_login" />
        </Link>
      </section>
    );
  }
  return (
    <section className="container py-5" style={{ maxWidth: 560 }}>
      <PageTitle title={title} />
      <h1 className="h2">{title}</h1>
      {user && user.status === "not_confirmed" ? (
        <>
          <p>
            <FormattedMessage id="activate.failed_resend" values={{ email: user.email }} />
          </p>
          <ResendActivationButton variant="primary" />
        </>
      ) : user ? (
        <>
          <p>
            <FormattedMessage id="activate.already_active" />
          </p>
          <Link to="/members" className="btn btn-primary">
            <FormattedMessage id="activate.to_members" />
          </Link>
        </>
      ) : (
        <>
          <p>
            <FormattedMessage id="activate.failed_login" />
          </p>
          <Link to="/login" className="btn btn-primary">
            <FormattedMessage id="activate.to_login" />
          </Link>
        </>
      )}
    </section>
  );
}
