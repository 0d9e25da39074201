import { NOTIFICATION_CATEGORIES, type NotificationCategory, type NotificationsResponse } from "@app/contract";
import { useCallback, useEffect, useState } from "react";
import { Alert, Button, Form, Spinner } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { errorMessage } from "../../lib/form-errors";
import { useMember } from "../../lib/member";
import { FormAlert } from "../../ui/form-alert";
import { getNotifications, setNotifications } from "./api";

type Setting = NotificationsResponse["notifications"][number];

/** Spec §3: the eight categories, with what each e-mail is about. */
export const CATEGORY_MESSAGES: Record<NotificationCategory, { label: string; description: string }> = {
  new_conversations: { label: "notifications.new_conversations", description: "notifications.new_conversations_hint" },
  new_messages: { label: "notifications.new_messages", description: "notifications.new_messages_hint" },
  like: { label: "notifications.like", description: "notifications.like_hint" },
  unread_message_reminders: {
    label: "notifications.unread_message_reminders",
    description: "notifications.unread_message_reminders_hint",
  },
  promotions: { label: "notifications.promotions", description: "notifications.promotions_hint" },
  weekly_updates: { label: "notifications.weekly_updates", description: "notifications.weekly_updates_hint" },
  news: { label: "notifications.news", description: "notifications.news_hint" },
  reminders: { label: "notifications.reminders", description: "notifications.reminders_hint" },
};

/** Reasons the member did not choose themself (spec §3): explained, with a way to switch back on. */
export const REASON_MESSAGES = {
  fbl: "notifications.reason_fbl",
  bounce: "notifications.reason_bounce",
  listunsubscribe: "notifications.reason_listunsubscribe",
} as const;

function isExplained(reason: Setting["reason"]): reason is keyof typeof REASON_MESSAGES {
  return reason === "fbl" || reason === "bounce" || reason === "listunsubscribe";
}

/** /notifications: the e-mail notification categories with switches. */
export function NotificationSettings() {
  const intl = useIntl();
  const member = useMember();
  const [settings, setSettings] = useState<Setting[] | null>(null);
  const [loadError, setLoadError] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState<NotificationCategory | "all" | null>(null);

  const load = useCallback(async () => {
    setLoadError("");
    try {
      setSettings(await getNotifications());
    } catch (caught) {
      setLoadError(errorMessage(caught, intl));
    }
  }, [intl]);

  useEffect(() => {
    void load();
  }, [load]);

  const change = async (enabled: Partial<Record<NotificationCategory, boolean>>, which: NotificationCategory | "all") => {
    setBusy(which);
    setError("");
    try {
      setSettings(await setNotifications(enabled));
      void member.refresh().catch(() => {});
    } catch (caught) {
      setError(errorMessage(caught, intl));
    }
    setBusy(null);
  };

  if (loadError) {
    return (
      <FormAlert>
        {loadError}{" "}
        <Button variant="link" className="p-0 align-baseline" onClick={() => void load()}>
          <FormattedMessage id="notifications.retry" />
        </Button>
      </FormAlert>
    );
  }
  if (!settings) {
    return (
      <p role="status">
        <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        <FormattedMessage id="notifications.loading" />
      </p>
    );
  }
  const byCategory = new Map(settings.map((s) => [s.category, s]));
  const blocked = settings.filter((s) => !s.enabled && isExplained(s.reason));
  return (
    <>
      <FormAlert>{error}</FormAlert>
      {blocked.length > 0 ? (
        <Alert variant="warning">
          <p className="mb-2">
            <FormattedMessage id="notifications.blocked_summary" values={{ count: blocked.length }} />
          </p>
          <Button
            variant="warning"
            size="sm"
            disabled={busy !== null}
            onClick={() => void change(Object.fromEntries(blocked.map((s) => [s.category, true])), "all")}
          >
            <FormattedMessage id="notifications.enable_all" />
          </Button>
        </Alert>
      ) : null}
      <ul className="list-group shadow-sm">
        {NOTIFICATION_CATEGORIES.map((category) => {
          const setting = byCategory.get(category) ?? { category, enabled: true, reason: null };
          const messages = CATEGORY_MESSAGES[category];
          const hintId = `notification-${category}-hint`;
          const reasonId = `notification-${category}-reason`;
          const explained = !setting.enabled && isExplained(setting.reason);
          return (
            <li key={category} className="list-group-item py-3">
              <Form.Check
                type="switch"
                id={`notification-${category}`}
                label={<span className="fw-semibold">{intl.formatMessage({ id: messages.label })}</span>}
                checked={setting.enabled}
                disabled={busy !== null}
                onChange={(event) => void change({ [category]: event.target.checked }, category)}
                aria-describedby={explained ? `${hintId} ${reasonId}` : hintId}
              />
              <p id={hintId} className="form-text mb-0 ms-5">
                <FormattedMessage id={messages.description} />
              </p>
              {explained && isExplained(setting.reason) ? (
                <div id={reasonId} className="alert alert-warning small mt-2 mb-0 ms-5">
                  <p className="mb-2">
                    <FormattedMessage id={REASON_MESSAGES[setting.reason]} values={{ email: member.user?.email ?? "" }} />
                  </p>
                  <div className="d-flex flex-wrap gap-2 align-items-center">
                    <Button
                      size="sm"
                      variant="outline-dark"
                      disabled={busy !== null}
                      onClick={() => void change({ [category]: true }, category)}
                    >
                      <FormattedMessage id="notifications.enable_again" />
                    </Button>
                    {setting.reason === "bounce" ? (
                      <Link to="/settings">
                        <FormattedMessage id="notifications.check_email" />
                      </Link>
                    ) : null}
                  </div>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}
