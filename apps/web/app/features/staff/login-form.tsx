import { STAFF_AUTH_ENDPOINTS } from "@app/contract";
import { type FormEvent, useState } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage, fieldErrors, useFocusFirstError } from "../../lib/form-errors";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { TextField } from "../../ui/text-field";
import { staffFetch } from "./api";

/**
 * The console's login: e-mail, password and the authenticator's code (or a recovery code) in one step,
 * so that a failure never says which of the three was wrong. A full page load follows, which renders the
 * console in the staff member's language.
 */
export function StaffLoginForm() {
  const intl = useIntl();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [formRef, focusFirstError] = useFocusFirstError();
  const fields = fieldErrors(error, ["email", "password", "code"] as const);
  const whole = error && Object.keys(fields).length === 0 ? errorMessage(error, intl) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await staffFetch(STAFF_AUTH_ENDPOINTS.login, { body: { email, password, code } });
      window.location.reload();
    } catch (failure) {
      setError(failure);
      setBusy(false);
      focusFirstError();
    }
  };

  return (
    <Form ref={formRef} onSubmit={submit} noValidate aria-labelledby="staff-login-title">
      {whole ? (
        <div data-form-error tabIndex={-1}>
          <FormAlert>{whole}</FormAlert>
        </div>
      ) : null}
      <TextField
        id="staff-email"
        label={<FormattedMessage id="staff.login.email" />}
        type="email"
        value={email}
        onChange={setEmail}
        autoComplete="username"
        required
        error={fields.email}
      />
      <TextField
        id="staff-password"
        label={<FormattedMessage id="staff.login.password" />}
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
        required
        error={fields.password}
      />
      <TextField
        id="staff-code"
        label={<FormattedMessage id="staff.login.code" />}
        hint={<FormattedMessage id="staff.login.code_hint" />}
        value={code}
        onChange={setCode}
        autoComplete="one-time-code"
        inputMode="text"
        maxLength={11}
        required
        error={fields.code}
      />
      <BusyButton type="submit" busy={busy} className="w-100">
        <FormattedMessage id="staff.login.submit" />
      </BusyButton>
    </Form>
  );
}
