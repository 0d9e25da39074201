import { ACCOUNT_RULES } from "@app/contract";
import { useState } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { errorCode } from "../../lib/form-errors";
import { type FieldErrors, useApiForm } from "../../lib/use-api-form";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { TextField } from "../../ui/text-field";
import { requestPasswordReset, resetPassword } from "./api";
import { confirmProblem, emailProblem, passwordProblem } from "./client-checks";

/** /reset-password: ask for a link to set a new password. */
export function ResetRequestForm() {
  const intl = useIntl();
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState("");
  const { formRef, handleSubmit, busy, errors, formError } = useApiForm({
    fields: ["email"],
    fieldOfCode: { email_not_found: "email", invalid_email: "email" },
  });

  const submit = handleSubmit(
    async () => {
      await requestPasswordReset(email.trim());
      setSentTo(email.trim());
    },
    {
      validate: () => {
        const problem = emailProblem(email);
        return problem ? { email: intl.formatMessage({ id: problem }) } : {};
      },
    },
  );

  if (sentTo) {
    return (
      <FormAlert variant="success">
        <FormattedMessage id="reset.sent" values={{ email: sentTo }} />
      </FormAlert>
    );
  }
  return (
    <Form ref={formRef} noValidate onSubmit={submit}>
      <p>
        <FormattedMessage id="reset.intro" />
      </p>
      <FormAlert>{formError}</FormAlert>
      <TextField
        id="reset-email"
        type="email"
        inputMode="email"
        autoComplete="email"
        label={<FormattedMessage id="auth.email" />}
        value={email}
        onChange={setEmail}
        error={errors.email}
        required
      />
      <BusyButton type="submit" variant="primary" busy={busy}>
        <FormattedMessage id="reset.submit" />
      </BusyButton>
    </Form>
  );
}

const NEW_FIELDS = ["password", "password_confirm"] as const;
type NewField = (typeof NEW_FIELDS)[number];

/** /reset-password/do: the new password twice; on success the member is logged in. */
export function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const intl = useIntl();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [tokenInvalid, setTokenInvalid] = useState(!token);
  const { formRef, handleSubmit, busy, errors, formError } = useApiForm({
    fields: NEW_FIELDS,
    fieldOfCode: {
      passwords_differ: "password_confirm",
      password_too_short: "password",
      password_too_long: "password",
      password_too_common: "password",
      password_is_email: "password",
    },
  });

  const problems = (): FieldErrors<NewField> => {
    const problems: FieldErrors<NewField> = {};
    const passwordId = passwordProblem(password);
    if (passwordId)
      problems.password = intl.formatMessage(
        { id: passwordId },
        { min: ACCOUNT_RULES.passwordMin, max: ACCOUNT_RULES.passwordMax },
      );
    const confirmId = confirmProblem(password, confirm);
    if (confirmId) problems.password_confirm = intl.formatMessage({ id: confirmId });
    return problems;
  };

  const submit = handleSubmit(
    async () => {
      await resetPassword({ token, password, password_confirm: confirm });
      onDone();
    },
    {
      validate: problems,
      // An expired or used link: the page offers a new one, with the server's message (no field has it).
      onFailure: (caught) => {
        if (errorCode(caught) === "token_invalid") setTokenInvalid(true);
      },
      stayBusy: true,
    },
  );

  if (tokenInvalid) {
    return (
      <div>
        <FormAlert>{formError || <FormattedMessage id="reset.link_invalid" />}</FormAlert>
        <Link to="/reset-password" className="btn btn-primary">
          <FormattedMessage id="reset.request_new" />
        </Link>
      </div>
    );
  }
  return (
    <Form ref={formRef} noValidate onSubmit={submit}>
      <FormAlert>{formError}</FormAlert>
      <TextField
        id="reset-new-password"
        type="password"
        autoComplete="new-password"
        label={<FormattedMessage id="reset.new_password" />}
        hint={<FormattedMessage id="auth.password_rule" values={{ min: ACCOUNT_RULES.passwordMin }} />}
        value={password}
        onChange={setPassword}
        error={errors.password}
        required
      />
      <TextField
        id="reset-new-password-confirm"
        type="password"
        autoComplete="new-password"
        label={<FormattedMessage id="reset.new_password_confirm" />}
        value={confirm}
        onChange={setConfirm}
        error={errors.password_confirm}
        required
      />
      <BusyButton type="submit" variant="primary" busy={busy}>
        <FormattedMessage id="reset.save" />
      </BusyButton>
    </Form>
  );
}
