import { useState } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { useApiForm } from "../../lib/use-api-form";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { TextField } from "../../ui/text-field";
import { login } from "./api";
import { emailProblem } from "./client-checks";

/**
 * The login form. Failures show the server's message (spec §8: "Login failed, please try again",
 * the lockout with its minutes). On success the page is reloaded at `to`, so every loader sees the session.
 */
export function LoginForm({ to = "/members", onSuccess }: { to?: string; onSuccess?: (to: string) => void }) {
  const intl = useIntl();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // The server's answer (wrong password, lockout) belongs to the whole form, never to one field.
  const { formRef, handleSubmit, busy, errors, formError } = useApiForm<"email" | "password">({ fields: [] });

  const submit = handleSubmit(
    async () => {
      await login(email.trim(), password);
      (onSuccess ?? ((path: string) => window.location.assign(path)))(to);
    },
    {
      validate: () => {
        const emailId = emailProblem(email);
        return {
          ...(emailId ? { email: intl.formatMessage({ id: emailId }) } : {}),
          ...(password ? {} : { password: intl.formatMessage({ id: "auth.required" }) }),
        };
      },
      stayBusy: true,
    },
  );

  return (
    <Form ref={formRef} noValidate onSubmit={submit} aria-busy={busy}>
      <FormAlert>{formError}</FormAlert>
      <TextField
        id="login-email"
        type="email"
        inputMode="email"
        autoComplete="username"
        label={<FormattedMessage id="auth.email" />}
        value={email}
        onChange={setEmail}
        error={errors.email}
        required
      />
      <TextField
        id="login-password"
        type="password"
        autoComplete="current-password"
        label={<FormattedMessage id="auth.password" />}
        value={password}
        onChange={setPassword}
        error={errors.password}
        required
      />
      <BusyButton type="submit" variant="primary" size="lg" className="w-100 mb-3" busy={busy}>
        <FormattedMessage id="login.submit" />
      </BusyButton>
      <p className="mb-0 d-flex flex-wrap justify-content-between gap-2">
        <Link to="/reset-password">
          <FormattedMessage id="login.forgot" />
        </Link>
        <Link to="/signup">
          <FormattedMessage id="login.no_account" />
        </Link>
      </p>
    </Form>
  );
}
