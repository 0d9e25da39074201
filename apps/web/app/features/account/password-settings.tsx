import { ACCOUNT_RULES } from "@app/contract";
import { useState } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { type FieldErrors, useApiForm } from "../../lib/use-api-form";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { SettingsSection } from "../../ui/settings-section";
import { TextField } from "../../ui/text-field";
import { changePassword } from "./api";
import { confirmProblem, passwordProblem } from "./client-checks";

const FIELDS = ["old_password", "new_password", "new_password_confirm"] as const;
type Field = (typeof FIELDS)[number];

/** Settings section: change the password (old, new, new again; optionally log out the other devices). */
export function PasswordSettings({ email }: { email: string }) {
  const intl = useIntl();
  const [values, setValues] = useState<Record<Field, string>>({ old_password: "", new_password: "", new_password_confirm: "" });
  const [endOthers, setEndOthers] = useState(true);
  const [saved, setSaved] = useState(false);
  const { formRef, handleSubmit, busy, errors, formError } = useApiForm({
    fields: FIELDS,
    fieldOfCode: {
      old_password_wrong: "old_password",
      password_wrong: "old_password",
      passwords_differ: "new_password_confirm",
      password_too_short: "new_password",
      password_too_long: "new_password",
      password_too_common: "new_password",
      password_is_email: "new_password",
    },
  });
  const set = (field: Field) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  const problems = (): FieldErrors<Field> => {
    const problems: FieldErrors<Field> = {};
    if (!values.old_password) problems.old_password = intl.formatMessage({ id: "auth.required" });
    const passwordId = passwordProblem(values.new_password, email);
    if (passwordId) {
      problems.new_password = intl.formatMessage(
        { id: passwordId },
        { min: ACCOUNT_RULES.passwordMin, max: ACCOUNT_RULES.passwordMax },
      );
    }
    const confirmId = confirmProblem(values.new_password, values.new_password_confirm);
    if (confirmId) problems.new_password_confirm = intl.formatMessage({ id: confirmId });
    return problems;
  };

  const submit = handleSubmit(
    async () => {
      await changePassword({ ...values, end_other_sessions: endOthers });
      setValues({ old_password: "", new_password: "", new_password_confirm: "" });
      setSaved(true);
    },
    { before: () => setSaved(false), validate: problems },
  );

  return (
    <SettingsSection name="password" titleId="settings.password_title">
      <Form ref={formRef} noValidate onSubmit={submit}>
        <FormAlert>{formError}</FormAlert>
        {saved ? (
          <FormAlert variant="success">
            <FormattedMessage id="settings.password_saved" />
          </FormAlert>
        ) : null}
        <TextField
          id="settings-old-password"
          type="password"
          autoComplete="current-password"
          label={<FormattedMessage id="settings.old_password" />}
          value={values.old_password}
          onChange={set("old_password")}
          error={errors.old_password}
          required
        />
        <TextField
          id="settings-new-password"
          type="password"
          autoComplete="new-password"
          label={<FormattedMessage id="settings.new_password" />}
          hint={<FormattedMessage id="auth.password_rule" values={{ min: ACCOUNT_RULES.passwordMin }} />}
          value={values.new_password}
          onChange={set("new_password")}
          error={errors.new_password}
          required
        />
        <TextField
          id="settings-new-password-confirm"
          type="password"
          autoComplete="new-password"
          label={<FormattedMessage id="settings.new_password_confirm" />}
          value={values.new_password_confirm}
          onChange={set("new_password_confirm")}
          error={errors.new_password_confirm}
          required
        />
        <Form.Check
          className="mb-3"
          id="settings-end-other-sessions"
          type="checkbox"
          label={intl.formatMessage({ id: "settings.end_other_sessions" })}
          checked={endOthers}
          onChange={(event) => setEndOthers(event.target.checked)}
        />
        <BusyButton type="submit" variant="primary" busy={busy}>
          <FormattedMessage id="settings.password_save" />
        </BusyButton>
      </Form>
    </SettingsSection>
  );
}
