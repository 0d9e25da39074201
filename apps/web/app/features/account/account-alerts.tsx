import type { User } from "@app/contract";
import { lazy, Suspense, useEffect, useState } from "react";
import { Alert } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useLocation, useNavigate } from "react-router";
import { dismissedAt, rememberDismissal } from "../../lib/dismissals";
import { useHydrated } from "../../lib/display-mode";
import { useSmartphone } from "../../lib/media";
import { useMember } from "../../lib/member";
import { onPath } from "../../lib/paths";
import { useWarningSlot, WARNING_RANK } from "../../lib/warnings";
import { BusyButton } from "../../ui/busy-button";
import { type DevicePushState, pushCapable, subscribePush, useDevicePushState } from "./push";

// The activation reminder's modal (a phone, right after signup) loads only then: react-bootstrap's
// Modal stays off the members' first screen (issue #29).
const ActivationModal = lazy(() => import("./activation-modal").then((m) => ({ default: m.ActivationModal })));

// The resend button (with the account API and zod) loads when the activation alert shows, not with
// every member's first screen (issue #29).
const ResendActivationButton = lazy(() => import("./signup-steps").then((m) => ({ default: m.ResendActivationButton })));

export const ACTIVATION_REMINDER_KEY = "dismissed-activation-reminder";
export const DISABLED_NOTIFICATIONS_KEY = "dismissed-disabled-notifications";
export const PUSH_ALERT_KEY = "dismissed-push-alert";

type AlertUser = Pick<User, "status" | "profile" | "notifications_disabled">;

/**
 * Spec §2: the account-activation reminder shows when the user status is not_confirmed, the profile
 * status is disabled and no notifications are disabled; not on signup, settings or notifications.
 */
export function showActivationReminder(user: AlertUser | null, pathname: string): boolean {
  if (!user) return false;
  if (user.status !== "not_confirmed" || user.profile.status !== "disabled" || user.notifications_disabled.length > 0)
    return false;
  return !onPath(pathname, ["/signup", "/settings", "/notifications"]);
}

/** Spec §2: some e-mails are off because of spam reports, bounces or a list unsubscribe; not on settings or notifications. */
export function showDisabledNotificationsAlert(user: AlertUser | null, pathname: string): boolean {
  if (!user) return false;
  return disabledReasons(user).length > 0 && !onPath(pathname, ["/settings", "/notifications"]);
}

/** Why e-mails were switched off without the member choosing it (spec §3 disabled reasons). */
const BLOCKING_REASONS = ["bounce", "fbl", "listunsubscribe"] as const;
type BlockingReason = (typeof BLOCKING_REASONS)[number];

/** The distinct reasons among the member's disabled notifications, in a fixed order. */
export function disabledReasons(user: Pick<User, "notifications_disabled">): BlockingReason[] {
  return BLOCKING_REASONS.filter((reason) => user.notifications_disabled.some((n) => n.reason === reason));
}

/** Spec §2: the push-enable alert's pages of exclusion (signup, notifications, activate-done, directdebit, premium). */
export const PUSH_ALERT_EXCLUDED = [
  "/signup",
  "/complete-signup",
  "/notifications",
  "/activate/done",
  "/directdebit",
  "/premium",
];

/**
 * Spec §2: the push-notification enable alert shows only for a logged-in, push-capable, unsubscribed
 * member when a push public key is set, not on the excluded pages. Unsubscribed: this device has no
 * subscription and its permission is not refused (the state is known: false); a member who refused
 * push ('denied' on the account) is not asked again.
 */
export function showPushAlert(input: {
  user: Pick<User, "push_subscription"> | null;
  pathname: string;
  publicKey: string | null;
  capable: boolean;
  device: DevicePushState;
}): boolean {
  const { user, pathname, publicKey, capable, device } = input;
  if (!user || !publicKey || !capable) return false;
  if (device !== false || user.push_subscription === "denied") return false;
  return !onPath(pathname, PUSH_ALERT_EXCLUDED);
}

/** The query flag the signup route adds on its way to members (spec §2: then a modal on smartphones). */
export const SIGNUP_COMPLETE_PARAM = "api_signup_complete";

/** The account alerts of the default layout's warnings header; `pushPublicKey` is settings.push_public_key. */
export function AccountAlerts({ pushPublicKey = null }: { pushPublicKey?: string | null }) {
  const intl = useIntl();
  const { user } = useMember();
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const smartphone = useSmartphone();
  const device = useDevicePushState();
  const [dismissed, setDismissed] = useState<Record<Dismissable, boolean>>({
    activation: false,
    notifications: false,
    push: false,
  });
  useEffect(() => {
    setDismissed({
      activation: dismissedAt(DISMISSAL_KEYS.activation) !== null,
      notifications: dismissedAt(DISMISSAL_KEYS.notifications) !== null,
      push: dismissedAt(DISMISSAL_KEYS.push) !== null,
    });
  }, []);
  const pathname = location.pathname;
  const params = new URLSearchParams(location.search);
  const activation = showActivationReminder(user, pathname);
  const asModal = activation && smartphone && params.has(SIGNUP_COMPLETE_PARAM);
  const pushWanted =
    !dismissed.push && showPushAlert({ user, pathname, publicKey: pushPublicKey, capable: pushCapable(), device });
  // One at a time, most important first (lib/warnings.ts); nothing before hydration (below).
  const activationShown = useWarningSlot(WARNING_RANK.activation, hydrated && activation && (asModal || !dismissed.activation));
  const notificationsShown = useWarningSlot(
    WARNING_RANK.disabledNotifications,
    hydrated && showDisabledNotificationsAlert(user, pathname) && !dismissed.notifications,
  );
  const pushShown = useWarningSlot(WARNING_RANK.push, hydrated && pushWanted);
  // Dismissals live in this browser's storage: nothing shows before hydration, so the server and the
  // first client render agree.
  if (!hydrated || !user) return null;
  const closeLabel = intl.formatMessage({ id: "alerts.close" });

  const dismiss = (which: Dismissable) => {
    rememberDismissal(DISMISSAL_KEYS[which]);
    setDismissed((current) => ({ ...current, [which]: true }));
  };
  const closeModal = () => {
    params.delete(SIGNUP_COMPLETE_PARAM);
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : "" }, { replace: true });
  };

  return (
    <>
      {activationShown && asModal ? (
        <Suspense fallback={null}>
          <ActivationModal email={user.email} onClose={closeModal} closeLabel={closeLabel} />
        </Suspense>
      ) : null}
      {activationShown && !asModal ? (
        <Alert variant="warning" dismissible onClose={() => dismiss("activation")} className="mt-3" closeLabel={closeLabel}>
          <p className="fw-semibold mb-1">
            <FormattedMessage id="alerts.activation_title" />
          </p>
          <p className="mb-2">
            <FormattedMessage id="alerts.activation_body" values={{ email: user.email, strong: (c) => <strong>{c}</strong> }} />
          </p>
          <Suspense fallback={null}>
            <ResendActivationButton size="sm" variant="outline-dark" />
          </Suspense>
        </Alert>
      ) : null}
      {notificationsShown ? (
        <Alert variant="warning" dismissible onClose={() => dismiss("notifications")} className="mt-3" closeLabel={closeLabel}>
          <p className="mb-1">
            <FormattedMessage
              id="alerts.notifications_disabled"
              values={{ link: (chunks) => <Link to="/notifications">{chunks}</Link> }}
            />
          </p>
          {/* Why (spec §3 reasons), as the notification settings say it; re-enabling is there. */}
          <ul className="mb-0 small">
            {disabledReasons(user).map((reason) => (
              <li key={reason}>
                <FormattedMessage id={`notifications.reason_${reason}`} values={{ email: user.email }} />
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {pushShown && pushPublicKey ? (
        <PushAlert publicKey={pushPublicKey} closeLabel={closeLabel} onClose={() => dismiss("push")} />
      ) : null}
    </>
  );
}

type Dismissable = "activation" | "notifications" | "push";
const DISMISSAL_KEYS: Record<Dismissable, string> = {
  activation: ACTIVATION_REMINDER_KEY,
  notifications: DISABLED_NOTIFICATIONS_KEY,
  push: PUSH_ALERT_KEY,
};

/**
 * Spec §2's push-notification enable alert: "Turn on notifications" asks for the permission and
 * subscribes this device; the alert goes once subscribed or refused (the device state changes).
 */
function PushAlert({ publicKey, closeLabel, onClose }: { publicKey: string; closeLabel: string; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const enable = async () => {
    setBusy(true);
    setFailed(false);
    try {
      await subscribePush(publicKey);
    } catch {
      setFailed(true);
    }
    setBusy(false);
  };
  return (
    <Alert variant="info" dismissible onClose={onClose} className="mt-3" closeLabel={closeLabel}>
      <p className="mb-2">
        <FormattedMessage id="alerts.push_body" />
      </p>
      <BusyButton size="sm" variant="primary" onClick={enable} busy={busy}>
        <FormattedMessage id="alerts.push_enable" />
      </BusyButton>
      {failed ? (
        <span role="status" className="ms-2 small">
          <FormattedMessage id="alerts.push_failed" />
        </span>
      ) : null}
    </Alert>
  );
}
