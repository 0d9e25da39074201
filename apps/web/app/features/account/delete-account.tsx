import { ACCOUNT_RULES } from "@app/contract";
import { useState } from "react";
import { Button, Form, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useApiForm } from "../../lib/use-api-form";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { SettingsSection } from "../../ui/settings-section";
import { TextField } from "../../ui/text-field";
import { deleteAccount } from "./api";

/**
 * Settings danger zone: delete the account after confirming with the password. The account is pending
 * deletion for 14 days; the session ends and the page goes to /account-deleted.
 */
export function DeleteAccountSettings({
  onDeleted = () => window.location.assign("/account-deleted"),
}: {
  onDeleted?: () => void;
}) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const { formRef, handleSubmit, busy, errors, formError, reset } = useApiForm({
    fields: ["password"],
    fieldOfCode: { password_wrong: "password", old_password_wrong: "password" },
  });

  const submit = handleSubmit(
    async () => {
      await deleteAccount(password);
      onDeleted();
    },
    {
      validate: () => (password ? {} : { password: intl.formatMessage({ id: "auth.required" }) }),
      stayBusy: true,
    },
  );

  return (
    <SettingsSection name="delete" titleId="settings.delete_title" danger>
      <p>
        <FormattedMessage id="settings.delete_body" values={{ days: ACCOUNT_RULES.reactivationDays }} />
      </p>
      <Button variant="outline-danger" onClick={() => setOpen(true)}>
        <FormattedMessage id="settings.delete_button" />
      </Button>
      <Modal
        show={open}
        onHide={() => setOpen(false)}
        onExited={() => {
          setPassword("");
          reset();
        }}
        backdrop={busy ? "static" : true}
        keyboard={!busy}
        aria-labelledby="delete-account-title"
      >
        <Form ref={formRef} noValidate onSubmit={submit}>
          <Modal.Header closeButton={!busy} closeLabel={intl.formatMessage({ id: "alerts.close" })}>
            <Modal.Title id="delete-account-title">
              <FormattedMessage id="settings.delete_confirm_title" />
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <p>
              <FormattedMessage id="settings.delete_confirm_body" values={{ days: ACCOUNT_RULES.reactivationDays }} />
            </p>
            <FormAlert>{formError}</FormAlert>
            <TextField
              id="delete-account-password"
              type="password"
              autoComplete="current-password"
              label={<FormattedMessage id="settings.delete_password" />}
              value={password}
              onChange={setPassword}
              error={errors.password}
              required
              className="mb-0"
            />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="outline-secondary" onClick={() => setOpen(false)} disabled={busy}>
              <FormattedMessage id="settings.cancel" />
            </Button>
            <BusyButton type="submit" variant="danger" busy={busy}>
              <FormattedMessage id="settings.delete_confirm" />
            </BusyButton>
          </Modal.Footer>
        </Form>
      </Modal>
    </SettingsSection>
  );
}
