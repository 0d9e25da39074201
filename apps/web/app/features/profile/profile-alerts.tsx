import type { User } from "@app/contract";
import { useEffect, useState } from "react";
import { Alert } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useLocation } from "react-router";
import { dismissedAt, rememberDismissal } from "../../lib/dismissals";
import { useMember } from "../../lib/member";
import { onPath } from "../../lib/paths";
import { useWarningSlot, WARNING_RANK } from "../../lib/warnings";

export const ADD_PHOTOS_KEY = "dismissed-add-photos";

/** Screens where the add-photos alert is not shown (spec §2). */
export const ADD_PHOTOS_HIDDEN_ON = [
  "/profile",
  "/signup",
  "/activate/done",
  "/premium",
  "/notifications",
  "/directdebit",
  "/settings",
] as const;

/** Spec §2: a logged-in member whose profile has no main image is asked to add photos and a bio. */
export function showAddPhotosAlert(user: Pick<User, "profile"> | null, pathname: string): boolean {
  if (!user || user.profile.main_image !== null) return false;
  return !onPath(pathname, ADD_PHOTOS_HIDDEN_ON);
}

/** The profile alerts of the default layout's warnings header: the dismissible add-photos warning. */
export function ProfileAlerts() {
  const intl = useIntl();
  const { user } = useMember();
  const location = useLocation();
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => setDismissed(dismissedAt(ADD_PHOTOS_KEY) !== null), []);
  // Dismissals live in this browser's storage: the server renders the alert, the root's head script
  // hides it before the first paint when dismissed here (no layout shift either way), and the first
  // render after hydration removes it.
  // After the more important alerts (lib/warnings.ts).
  const shown = useWarningSlot(WARNING_RANK.addPhotos, !dismissed && showAddPhotosAlert(user, location.pathname));
  if (!shown) return null;
  const dismiss = () => {
    rememberDismissal(ADD_PHOTOS_KEY);
    setDismissed(true);
  };
  return (
    <Alert
      variant="warning"
      dismissible
      onClose={dismiss}
      className="mt-3"
      data-dismissal={ADD_PHOTOS_KEY}
      closeLabel={intl.formatMessage({ id: "alerts.close" })}
    >
      <FormattedMessage
        id="alerts.add_photos"
        values={{
          link: (chunks) => (
            <Link to="/profile" className="alert-link">
              {chunks}
            </Link>
          ),
        }}
      />
    </Alert>
  );
}
