import { FormattedMessage, useIntl } from "react-intl";
import { Link, Navigate } from "react-router";
import { DataExportSettings } from "../features/account/data-export";
import { DeleteAccountSettings } from "../features/account/delete-account";
import { EmailSettings } from "../features/account/mail-change-form";
import { PasswordSettings } from "../features/account/password-settings";
import { InvisibleSettings, LanguageSettings, PresenceSettings } from "../features/account/preference-settings";
import { BlockedMembersSettings } from "../features/blocks/blocked-members";
import { useMember } from "../lib/member";
import { pageMiddleware } from "../lib/page-middleware";
import { useRootData } from "../lib/root-data";
import { PageTitle } from "../ui/page-title";
import { SettingsSection } from "../ui/settings-section";

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

/** Spec §2 names a settings screen without a route; ours is /settings. Members only. */
// Nothing to load: the loader makes a client-side navigation ask the server, whose middleware guards the page.
export async function loader() {
  return null;
}

export default function Settings() {
  const intl = useIntl();
  const root = useRootData();
  const { user } = useMember();
  if (!user) return <Navigate to="/login" replace />;
  const title = intl.formatMessage({ id: "title.settings" });
  return (
    <section className="container py-4" style={{ maxWidth: 720 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-4">{title}</h1>
      <EmailSettings user={user} />
      <PasswordSettings email={user.email} />
      <LanguageSettings current={root?.locale ?? user.language} />
      <InvisibleSettings user={user} />
      <PresenceSettings user={user} />
      <SettingsSection name="notifications" titleId="settings.notifications_title">
        <p>
          <FormattedMessage id="settings.notifications_body" />
        </p>
        <Link to="/notifications" className="btn btn-outline-primary">
          <FormattedMessage id="settings.notifications_link" />
        </Link>
      </SettingsSection>
      <BlockedMembersSettings />
      <DataExportSettings />
      <DeleteAccountSettings />
    </section>
  );
}
