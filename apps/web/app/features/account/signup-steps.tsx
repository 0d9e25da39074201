import type { User } from "@app/contract";
import { useState } from "react";
import { Button } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../lib/form-errors";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { resendActivation } from "./api";
import { subscribePush } from "./push";

/** A button that sends the activation e-mail again and says how it went. */
export function ResendActivationButton({ variant = "outline-primary", size }: { variant?: string; size?: "sm" | "lg" }) {
  const intl = useIntl();
  const [state, setState] = useState<"idle" | "busy" | "sent">("idle");
  const [error, setError] = useState("");
  const resend = async () => {
    setState("busy");
    setError("");
    try {
      await resendActivation();
      setState("sent");
    } catch (caught) {
      setError(errorMessage(caught, intl));
      setState("idle");
    }
  };
  return (
    <>
      <BusyButton variant={variant} size={size} onClick={resend} busy={state === "busy"} disabled={state !== "idle"}>
        <FormattedMessage id="activate.resend" />
      </BusyButton>
      <span role="status" className="ms-2 small">
        {state === "sent" ? <FormattedMessage id="activate.resent" /> : null}
      </span>
      {error ? (
        <div className="mt-2">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : null}
    </>
  );
}

/** The last step (spec §4): confirm the e-mail address by its link. */
export function ConfirmEmailStep({ user, onFinish }: { user: User | null; onFinish: () => void }) {
  const confirmed = user?.status === "active";
  return (
    <div>
      {confirmed ? (
        <p>
          <FormattedMessage id="signup.confirm_done" />
        </p>
      ) : (
        <>
          <p>
            <FormattedMessage
              id="signup.confirm_body"
              values={{ email: user?.email ?? "", strong: (chunks) => <strong>{chunks}</strong> }}
            />
          </p>
          <p className="text-body-secondary small">
            <FormattedMessage id="signup.confirm_hint" />
          </p>
          <div className="mb-4">
            <ResendActivationButton />
          </div>
        </>
      )}
      <Button variant="primary" size="lg" className="w-100" onClick={onFinish}>
        <FormattedMessage id="signup.to_members" />
      </Button>
    </div>
  );
}

/**
 * Push opt-in (spec §4), offered only when the site has a push key and the browser can do it: asks for
 * the permission and subscribes this device; a refusal stores 'denied' (spec §8). Either way, and when
 * subscribing fails, the member goes on to the next step.
 */
export function PushStep({ publicKey, onDone }: { publicKey: string; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const enable = async () => {
    setBusy(true);
    try {
      await subscribePush(publicKey);
    } catch {
      // Unsupported or the push service unreachable: the member continues without push.
    }
    setBusy(false);
    onDone();
  };
  return (
    <div>
      <p>
        <FormattedMessage id="signup.push_body" />
      </p>
      <div className="d-flex flex-wrap gap-2">
        <BusyButton variant="primary" onClick={enable} busy={busy} disabled={busy}>
          <FormattedMessage id="signup.push_enable" />
        </BusyButton>
        <Button variant="link" onClick={onDone} disabled={busy}>
          <FormattedMessage id="signup.push_skip" />
        </Button>
      </div>
    </div>
  );
}
