import type { User } from "@app/contract";
import { useState } from "react";
import { Button, Form, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { type FieldErrors, useApiForm } from "../../lib/use-api-form";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { SettingsSection } from "../../ui/settings-section";
import { TextField } from "../../ui/text-field";
import { requestMailChange } from "./api";
import { emailProblem } from "./client-checks";

const FIELDS = ["new_email", "password"] as const;
type Field = (typeof FIELDS)[number];

/** The "e-mail change form" modal of spec §2: new address and the current password. */
export function MailChangeModal({ show, onHide }: { show: boolean; onHide: () => void }) {
  const intl = useIntl();
  const [newEmail, setNewEmail] = useState("");
  const [password, setPassword] = useState("");
  const [sentTo, setSentTo] = useState("");
  const form = useApiForm({
    fields: FIELDS,
    fieldOfCode: {
      new_email_invalid: "new_email",
      new_email_taken: "new_email",
      invalid_email: "new_email",
      old_password_wrong: "password",
      password_wrong: "password",
    },
  });
  const { formRef, busy, errors, formError } = form;

  const reset = () => {
    setNewEmail("");
    setPassword("");
    form.reset();
    setSentTo("");
  };

  const submit = form.handleSubmit(
    async () => {
      await requestMailChange({ new_email: newEmail.trim(), password });
      setSentTo(newEmail.trim());
    },
    {
      validate: () => {
        const problems: FieldErrors<Field> = {};
        const emailId = emailProblem(newEmail);
        if (emailId) problems.new_email = intl.formatMessage({ id: emailId });
        if (!password) problems.password = intl.formatMessage({ id: "auth.required" });
        return problems;
      },
    },
  );

  return (
    <Modal show={show} onHide={onHide} onExited={reset} aria-labelledby="mail-change-title" backdrop={busy ? "static" : true}>
      <Form ref={formRef} noValidate onSubmit={submit}>
        <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "alerts.close" })}>
          <Modal.Title id="mail-change-title">
            <FormattedMessage id="mailchange.title" />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {sentTo ? (
            <FormAlert variant="success">
              <FormattedMessage id="mailchange.sent" values={{ email: sentTo }} />
            </FormAlert>
          ) : (
            <>
              <FormAlert>{formError}</FormAlert>
              <TextField
                id="mail-change-email"
                type="email"
                inputMode="email"
                autoComplete="email"
                label={<FormattedMessage id="mailchange.new_email" />}
                value={newEmail}
                onChange={setNewEmail}
                error={errors.new_email}
                required
              />
              <TextField
                id="mail-change-password"
                type="password"
                autoComplete="current-password"
                label={<FormattedMessage id="mailchange.password" />}
                value={password}
                onChange={setPassword}
                error={errors.password}
                required
                className="mb-0"
              />
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide}>
            <FormattedMessage id={sentTo ? "settings.close" : "settings.cancel"} />
          </Button>
          {sentTo ? null : (
            <BusyButton type="submit" variant="primary" busy={busy}>
              <FormattedMessage id="mailchange.submit" />
            </BusyButton>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** Settings section: the current address and the button that opens the e-mail change form. */
export function EmailSettings({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  return (
    <SettingsSection name="email" titleId="settings.email_title">
      <p className="mb-2">
        <FormattedMessage
          id="settings.email_current"
          values={{ email: user.email, strong: (chunks) => <strong className="text-break">{chunks}</strong> }}
        />
      </p>
      {user.status === "not_confirmed" ? (
        <p className="small text-warning-emphasis">
          <FormattedMessage id="settings.email_not_confirmed" />
        </p>
      ) : null}
      <Button variant="outline-primary" onClick={() => setOpen(true)}>
        <FormattedMessage id="settings.email_change" />
      </Button>
      <MailChangeModal show={open} onHide={() => setOpen(false)} />
    </SettingsSection>
  );
}
