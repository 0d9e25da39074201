import { ACCOUNT_RULES } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { PageTitle } from "../ui/page-title";

/** /account-deleted: after deleting the account (pending deletion, reactivatable for 14 days). */
export default function AccountDeleted() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "title.account_deleted" });
  return (
    <section className="container py-5" style={{ maxWidth: 600 }}>
      <PageTitle title={title} />
      <h1 className="h2">{title}</h1>
      <p className="lead">
        <FormattedMessage id="account.deleted_body" values={{ days: ACCOUNT_RULES.reactivationDays }} />
      </p>
      <p>
        <FormattedMessage id="account.deleted_reactivate" values={{ days: ACCOUNT_RULES.reactivationDays }} />
      </p>
      <Link to="/" className="btn btn-outline-primary">
        <FormattedMessage id="error.home_link" />
      </Link>
    </section>
  );
}
