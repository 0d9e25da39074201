import { lazy, type ReactNode, Suspense } from "react";
import { FormattedMessage } from "react-intl";
import { Outlet, useRouteError } from "react-router";
import { TimeBonusBanner } from "../features/discounts/time-bonus-banner";
import { ProfileAlerts } from "../features/profile/profile-alerts";
import { useBadgeCounts } from "../lib/badges";
import { useMember } from "../lib/member";
import { useRootData } from "../lib/root-data";
import { useRouteFlag } from "../lib/route-handle";
import { WarningsProvider } from "../lib/warnings";
import { EntryWarning } from "../ui/entry-warning";
import { ErrorPage } from "../ui/error-page";
import { Footer } from "../ui/footer";
import { ProgressBar } from "../ui/progress-bar";
import { navMemberOf, TopNav } from "../ui/top-nav";

// Parts only a member ever sees load for members, not with every visitor's page (issue #13). The
// account alerts render nothing before hydration and the time-bonus popup waits 40 s, so neither
// has server HTML to hydrate.
const AccountAlerts = lazy(() => import("../features/account/account-alerts").then((m) => ({ default: m.AccountAlerts })));
// The account menu's completeness meter reads the member's profile through the contract (and zod):
// it loads when the menu first opens, not with the members' first screen (issue #29, decision 039).
const CompletenessMenuItem = lazy(() =>
  import("../features/profile/completeness-meter").then((m) => ({ default: m.CompletenessMenuItem })),
);
const TimeBonusModal = lazy(() => import("../features/discounts/time-bonus-modal").then((m) => ({ default: m.TimeBonusModal })));

/**
 * Spec §2 default layout: top navigation, warnings header (the alerts of the features render into
 * it), content, footer with the disclaimer and the English-only US footer, and the entry warning.
 * A layout route module: like the routes, it composes features (the account and profile alerts, the
 * time-bonus banner and popup of the members area).
 */
export function DefaultChrome({ children }: { children: ReactNode }) {
  const root = useRootData();
  const { user, logout } = useMember();
  const badges = useBadgeCounts();
  const hideEntryWarning = useRouteFlag("hideEntryWarning");
  if (!root) return <main className="app-main">{children}</main>;
  return (
    <WarningsProvider>
      <a href="#main" className="visually-hidden-focusable position-absolute top-0 start-0 p-2 bg-white">
        <FormattedMessage id="nav.skip" />
      </a>
      <ProgressBar />
      <TopNav
        siteName={root.settings.name}
        member={user ? navMemberOf(user, badges) : null}
        onLogout={() => void logout()}
        accountMenuTop={
          <Suspense fallback={null}>
            <CompletenessMenuItem />
          </Suspense>
        }
      />
      <div id="warnings-header" className="container">
        {user ? (
          <Suspense fallback={null}>
            <AccountAlerts pushPublicKey={root.settings.push_public_key} />
          </Suspense>
        ) : null}
        <ProfileAlerts />
        <TimeBonusBanner />
      </div>
      <main id="main" className="app-main">
        {children}
      </main>
      <Footer settings={root.settings} company={root.company} locale={root.locale} />
      {user ? (
        <Suspense fallback={null}>
          <TimeBonusModal />
        </Suspense>
      ) : null}
      <EntryWarning settings={root.settings} loggedIn={user !== null} hidden={hideEntryWarning} />
    </WarningsProvider>
  );
}

export default function DefaultLayout() {
  return (
    <DefaultChrome>
      <Outlet />
    </DefaultChrome>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <DefaultChrome>
      <ErrorPage error={error} />
    </DefaultChrome>
  );
}
