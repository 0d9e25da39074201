import { useIntl } from "react-intl";
import { useSearchParams } from "react-router";
import { MailChangeConfirm } from "../features/account/mail-change-confirm";
import { PageTitle } from "../ui/page-title";

/** /mail-change/do?token=…: the link sent to the new address of an e-mail change. */
export default function MailChangeDo() {
  const intl = useIntl();
  const [params] = useSearchParams();
  const title = intl.formatMessage({ id: "title.mail_change" });
  return (
    <section className="container py-5" style={{ maxWidth: 560 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-4">{title}</h1>
      <MailChangeConfirm token={params.get("token") ?? ""} />
    </section>
  );
}
