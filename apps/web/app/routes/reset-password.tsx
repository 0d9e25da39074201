import { useIntl } from "react-intl";
import { ResetRequestForm } from "../features/account/reset-password-forms";
import type { RouteHandle } from "../lib/route-handle";
import { PageTitle } from "../ui/page-title";

export const handle: RouteHandle = { hideEntryWarning: true };

/** /reset-password: request a link to set a new password. */
export default function ResetPassword() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "title.reset_password" });
  return (
    <section className="container py-5" style={{ maxWidth: 480 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-4">{title}</h1>
      <ResetRequestForm />
    </section>
  );
}
