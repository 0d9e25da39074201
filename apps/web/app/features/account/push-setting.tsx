import { useEffect, useState } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useHydrated } from "../../lib/display-mode";
import { isSubscribed, pushCapable, readDevicePushState, subscribePush, unsubscribePush, useDevicePushState } from "./push";

/**
 * /notifications: push on this device (spec §4, issue #28), a switch beside the e-mail categories. On:
 * asks for the permission and subscribes; off: the subscription ends and the account forgets it. A
 * refused permission can only be changed in the browser: the switch is then off and disabled, and says so.
 * Nothing shows without the site's push key or in a browser that cannot push.
 */
export function PushSetting({ publicKey }: { publicKey: string | null }) {
  const intl = useIntl();
  const hydrated = useHydrated();
  const state = useDevicePushState();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const capable = hydrated && pushCapable();
  useEffect(() => {
    if (capable) void readDevicePushState();
  }, [capable]);
  if (!publicKey || !capable || state === null) return null;

  const toggle = async (on: boolean) => {
    setBusy(true);
    setFailed(false);
    try {
      if (on) await subscribePush(publicKey);
      else await unsubscribePush();
    } catch {
      setFailed(true);
    }
    setBusy(false);
  };
  const denied = state === "denied";
  return (
    <section className="mt-4" aria-labelledby="push-setting-title">
      <h2 id="push-setting-title" className="h5">
        <FormattedMessage id="push.title" />
      </h2>
      <div className="list-group shadow-sm">
        <div className="list-group-item py-3">
          <Form.Check
            type="switch"
            id="push-setting"
            label={<span className="fw-semibold">{intl.formatMessage({ id: "push.switch" })}</span>}
            checked={isSubscribed(state)}
            disabled={busy || denied}
            onChange={(event) => void toggle(event.target.checked)}
            aria-describedby="push-setting-hint"
          />
          <p id="push-setting-hint" className="form-text mb-0 ms-5">
            <FormattedMessage id={denied ? "push.denied" : "push.hint"} />
          </p>
          {failed ? (
            <p role="status" className="small text-danger mt-2 mb-0 ms-5">
              <FormattedMessage id="alerts.push_failed" />
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}
