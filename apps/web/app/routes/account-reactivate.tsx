import { useIntl } from "react-intl";
import { useSearchParams } from "react-router";
import { ReactivateAccount } from "../features/account/reactivate-account";
import { PageTitle } from "../ui/page-title";

/** /account-reactivate?token=…: the reactivation link of a deleted account (valid for 14 days). */
export default function AccountReactivate() {
  const intl = useIntl();
  const [params] = useSearchParams();
  const title = intl.formatMessage({ id: "title.account_reactivate" });
  return (
    <section className="container py-5" style={{ maxWidth: 560 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-4">{title}</h1>
      <ReactivateAccount token={params.get("token") ?? ""} />
    </section>
  );
}
