import { FormattedMessage, useIntl } from "react-intl";
import { Link, Navigate } from "react-router";
import { NotificationSettings } from "../features/account/notification-settings";
import { PushSetting } from "../features/account/push-setting";
import { useMember } from "../lib/member";
import { pageMiddleware } from "../lib/page-middleware";
import { useRootData } from "../lib/root-data";
import { PageTitle } from "../ui/page-title";

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

// Nothing to load: the loader makes a client-side navigation ask the server, whose middleware guards the page.
export async function loader() {
  return null;
}

/** /notifications: push on this device (issue #28) and the e-mail notification settings (spec §2, §3). */
export default function Notifications() {
  const intl = useIntl();
  const { user } = useMember();
  const pushPublicKey = useRootData()?.settings.push_public_key ?? null;
  if (!user) return <Navigate to="/login" replace />;
  const title = intl.formatMessage({ id: "title.notifications" });
  return (
    <section className="container py-4" style={{ maxWidth: 720 }}>
      <PageTitle title={title} />
      <p className="mb-2">
        <Link to="/settings">
          <span aria-hidden="true">‹ </span>
          <FormattedMessage id="notifications.back_to_settings" />
        </Link>
      </p>
      <h1 className="h2">{title}</h1>
      <p className="text-body-secondary">
        <FormattedMessage id="notifications.intro" values={{ email: user.email }} />
      </p>
      <NotificationSettings />
      <PushSetting publicKey={pushPublicKey} />
    </section>
  );
}
