import { useState } from "react";
import { Button } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate } from "react-router";
import { ApiCallError } from "../../lib/api";
import { FormAlert } from "../../ui/form-alert";
import { reactivate } from "./api";

/**
 * The reactivation link's page: one button that posts the token. A link alone never undoes a
 * deletion, because mail scanners open links too.
 */
export function ReactivateAccount({ token }: { token: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await reactivate(token);
      await navigate("/login?reactivated=1");
    } catch (caught) {
      setError(
        caught instanceof ApiCallError && caught.body ? caught.body.message : intl.formatMessage({ id: "error.try_later" }),
      );
      setBusy(false);
    }
  };
  return (
    <>
      <p className="lead">
        <FormattedMessage id="account.reactivate_body" />
      </p>
      <FormAlert>{error}</FormAlert>
      <Button size="lg" onClick={() => void submit()} disabled={busy || !token}>
        <FormattedMessage id="account.reactivate_button" />
      </Button>
    </>
  );
}
