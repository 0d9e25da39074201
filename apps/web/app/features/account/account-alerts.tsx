import type { User } from "@app/contract";
import { useEffect, useState } from "react";
import { Alert, Button, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useLocation, useNavigate } from "react-router";
import { dismissedAt, rememberDismissal } from "../../lib/dismissals";
import { useHydrated } from "../../lib/display-mode";
import { useSmartphone } from "../../lib/media";
import { useMember } from "../../lib/member";
import { onPath } from "../../lib/paths";
import { ResendActivationButton } from "./signup-steps";

export const ACTIVATION_REMINDER_KEY = "dismissed-activation-reminder";
export const DISABLED_NOTIFICATIONS_KEY = "dismissed-disabled-notifications";

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
  const blocked = user.notifications_disabled.some(
    (n) => n.reason === "fbl" || n.reason === "bounce" || n.reason === "listunsubscribe",
  );
  return blocked && !onPath(pathname, ["/settings", "/notifications"]);
}

/** The query flag the signup route adds on its way to members (spec §2: then a modal on smartphones). */
export const SIGNUP_COMPLETE_PARAM = "api_signup_complete";

/** The account alerts of the default layout's warnings header. */
export function AccountAlerts() {
  const intl = useIntl();
  const { user } = useMember();
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const smartphone = useSmartphone();
  const [dismissed, setDismissed] = useState<{ activation: boolean; notifications: boolean }>({
    activation: false,
    notifications: false,
  });
  useEffect(() => {
    setDismissed({
      activation: dismissedAt(ACTIVATION_REMINDER_KEY) !== null,
      notifications: dismissedAt(DISABLED_NOTIFICATIONS_KEY) !== null,
    });
  }, []);
  // Dismissals live in this browser's storage: nothing shows before hydration, so the server and the
  // first client render agree.
  if (!hydrated || !user) return null;
  const closeLabel = intl.formatMessage({ id: "alerts.close" });

  const dismiss = (which: "activation" | "notifications") => {
    rememberDismissal(which === "activation" ? ACTIVATION_REMINDER_KEY : DISABLED_NOTIFICATIONS_KEY);
    setDismissed((current) => ({ ...current, [which]: true }));
  };

  const activation = showActivationReminder(user, location.pathname);
  const params = new URLSearchParams(location.search);
  const asModal = activation && smartphone && params.has(SIGNUP_COMPLETE_PARAM);
  const closeModal = () => {
    params.delete(SIGNUP_COMPLETE_PARAM);
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : "" }, { replace: true });
  };

  return (
    <>
      {activation && asModal ? (
        <Modal show onHide={closeModal} centered aria-labelledby="activation-reminder-title">
          <Modal.Header closeButton closeLabel={closeLabel}>
            <Modal.Title id="activation-reminder-title">
              <FormattedMessage id="alerts.activation_title" />
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <p>
              <FormattedMessage id="alerts.activation_body" values={{ email: user.email, strong: (c) => <strong>{c}</strong> }} />
            </p>
            <ResendActivationButton />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="primary" onClick={closeModal}>
              <FormattedMessage id="alerts.ok" />
            </Button>
          </Modal.Footer>
        </Modal>
      ) : null}
      {activation && !asModal && !dismissed.activation ? (
        <Alert variant="warning" dismissible onClose={() => dismiss("activation")} className="mt-3" closeLabel={closeLabel}>
          <p className="fw-semibold mb-1">
            <FormattedMessage id="alerts.activation_title" />
          </p>
          <p className="mb-2">
            <FormattedMessage id="alerts.activation_body" values={{ email: user.email, strong: (c) => <strong>{c}</strong> }} />
          </p>
          <ResendActivationButton size="sm" variant="outline-dark" />
        </Alert>
      ) : null}
      {showDisabledNotificationsAlert(user, location.pathname) && !dismissed.notifications ? (
        <Alert variant="warning" dismissible onClose={() => dismiss("notifications")} className="mt-3" closeLabel={closeLabel}>
          <FormattedMessage
            id="alerts.notifications_disabled"
            values={{ link: (chunks) => <Link to="/notifications">{chunks}</Link> }}
          />
        </Alert>
      ) : null}
    </>
  );
}
