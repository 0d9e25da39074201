import { useIntl } from "react-intl";
import { useSearchParams } from "react-router";
import { ResetPasswordForm } from "../features/account/reset-password-forms";
import type { RouteHandle } from "../lib/route-handle";
import { PageTitle } from "../ui/page-title";

export const handle: RouteHandle = { hideEntryWarning: true };

/** /reset-password/do?token=…: the link of the reset e-mail. Success logs in and goes to members. */
export default function ResetPasswordDo() {
  const intl = useIntl();
  const [params] = useSearchParams();
  const title = intl.formatMessage({ id: "title.reset_password_do" });
  return (
    <section className="container py-5" style={{ maxWidth: 480 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-4">{title}</h1>
      {/* A full navigation, so that every loader sees the new session. */}
      <ResetPasswordForm token={params.get("token") ?? ""} onDone={() => window.location.assign("/members")} />
    </section>
  );
}
