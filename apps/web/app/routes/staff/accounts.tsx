import {
  LOCALES,
  nameValues,
  STAFF_AUTH_ENDPOINTS,
  STAFF_ROLES,
  type StaffAccount,
  type StaffEnrolment,
  type StaffRole,
} from "@app/contract";
import { type FormEvent, useState } from "react";
import { Button, Form, Modal, Table } from "react-bootstrap";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { useStaffMutation, useStaffQuery } from "../../features/staff/api";
import { useStaff } from "../../features/staff/context";
import { HeaderRow } from "../../features/staff/table";
import { errorMessage, fieldErrors } from "../../lib/form-errors";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { PageTitle } from "../../ui/page-title";
import { TextField } from "../../ui/text-field";

const ACCOUNTS = "/staff/api/staff";

/** /staff/accounts (admin): the staff accounts, a new one with its enrolment shown once, roles, deactivation. */
export default function StaffAccounts() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.accounts.title" });
  const accounts = useStaffQuery(STAFF_AUTH_ENDPOINTS.staffList);
  const [enrolment, setEnrolment] = useState<StaffEnrolment | null>(null);
  return (
    <section>
      <PageTitle title={title} />
      <h1 className="h3 mb-3">{title}</h1>
      {accounts.error ? <FormAlert>{errorMessage(accounts.error, intl)}</FormAlert> : null}
      <Table responsive hover className="align-middle">
        <HeaderRow
          ids={[
            "staff.accounts.name",
            "staff.login.email",
            "staff.accounts.role",
            "staff.accounts.last_login",
            "staff.accounts.status",
          ]}
        />
        <tbody>
          {(accounts.data?.accounts ?? []).map((account) => (
            <AccountRow key={account.id} account={account} />
          ))}
        </tbody>
      </Table>
      <h2 className="h5 mt-4">
        <FormattedMessage id="staff.accounts.new" />
      </h2>
      <NewAccountForm onCreated={setEnrolment} />
      <EnrolmentDialog enrolment={enrolment} onClose={() => setEnrolment(null)} />
    </section>
  );
}

function AccountRow({ account }: { account: StaffAccount }) {
  const intl = useIntl();
  const me = useStaff();
  const update = useStaffMutation(STAFF_AUTH_ENDPOINTS.staffUpdate, [ACCOUNTS]);
  const self = account.id === me.id;
  return (
    <tr className={account.active ? "" : "text-body-secondary"}>
      <td>{account.name}</td>
      <td>{account.email}</td>
      <td>
        <Form.Select
          size="sm"
          aria-label={intl.formatMessage({ id: "staff.accounts.role_of" }, nameValues(account.name))}
          value={account.role}
          disabled={self || update.isPending}
          onChange={(event) => update.mutate({ params: { id: account.id }, body: { role: event.target.value as StaffRole } })}
        >
          {STAFF_ROLES.map((role) => (
            <option key={role} value={role}>
              {intl.formatMessage({ id: `staff.role.${role}` })}
            </option>
          ))}
        </Form.Select>
      </td>
      <td>
        {account.last_login_at ? <FormattedDate value={account.last_login_at} dateStyle="medium" timeStyle="short" /> : "–"}
      </td>
      <td>
        <Button
          size="sm"
          variant={account.active ? "outline-danger" : "outline-success"}
          disabled={self || update.isPending}
          onClick={() => update.mutate({ params: { id: account.id }, body: { active: !account.active } })}
        >
          <FormattedMessage
            id={account.active ? "staff.accounts.deactivate" : "staff.accounts.activate"}
            values={{ name: account.name }}
          />
        </Button>
      </td>
    </tr>
  );
}

function NewAccountForm({ onCreated }: { onCreated: (enrolment: StaffEnrolment) => void }) {
  const intl = useIntl();
  const create = useStaffMutation(STAFF_AUTH_ENDPOINTS.staffCreate, [ACCOUNTS]);
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<StaffRole>("operator");
  const [language, setLanguage] = useState<(typeof LOCALES)[number]["code"]>(LOCALES[0].code);
  const [password, setPassword] = useState("");
  const fields = fieldErrors(create.error, ["email", "name", "password"] as const, { email_taken: "email" });
  const whole = create.error && Object.keys(fields).length === 0 ? errorMessage(create.error, intl) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { body: { email, name, role, language, password } },
      {
        onSuccess: (enrolment) => {
          setEmail("");
          setName("");
          setPassword("");
          onCreated(enrolment);
        },
      },
    );
  };
  return (
    <Form onSubmit={submit} noValidate style={{ maxWidth: 480 }}>
      {whole ? <FormAlert>{whole}</FormAlert> : null}
      <TextField
        id="new-staff-email"
        type="email"
        label={<FormattedMessage id="staff.login.email" />}
        value={email}
        onChange={setEmail}
        required
        error={fields.email}
      />
      <TextField
        id="new-staff-name"
        label={<FormattedMessage id="staff.accounts.name" />}
        value={name}
        onChange={setName}
        required
        error={fields.name}
      />
      <Form.Group controlId="new-staff-role" className="mb-3">
        <Form.Label>
          <FormattedMessage id="staff.accounts.role" />
        </Form.Label>
        <Form.Select value={role} onChange={(event) => setRole(event.target.value as StaffRole)}>
          {STAFF_ROLES.map((r) => (
            <option key={r} value={r}>
              {intl.formatMessage({ id: `staff.role.${r}` })}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group controlId="new-staff-language" className="mb-3">
        <Form.Label>
          <FormattedMessage id="staff.accounts.language" />
        </Form.Label>
        <Form.Select value={language} onChange={(event) => setLanguage(event.target.value as typeof language)}>
          {LOCALES.map((locale) => (
            <option key={locale.code} value={locale.code} lang={locale.code}>
              {locale.name}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <TextField
        id="new-staff-password"
        type="password"
        autoComplete="new-password"
        label={<FormattedMessage id="staff.login.password" />}
        hint={<FormattedMessage id="staff.accounts.password_hint" />}
        value={password}
        onChange={setPassword}
        required
        error={fields.password}
      />
      <BusyButton type="submit" busy={create.isPending}>
        <FormattedMessage id="staff.accounts.create" />
      </BusyButton>
    </Form>
  );
}

/** The new account's second factor, shown once: the QR code, the secret as text, the recovery codes. */
function EnrolmentDialog({ enrolment, onClose }: { enrolment: StaffEnrolment | null; onClose: () => void }) {
  return (
    <Modal show={enrolment !== null} onHide={onClose} aria-labelledby="enrolment-title" centered>
      <Modal.Header closeButton>
        <Modal.Title id="enrolment-title">
          <FormattedMessage id="staff.accounts.enrolment_title" values={{ name: enrolment?.account.name ?? "" }} />
        </Modal.Title>
      </Modal.Header>
      {enrolment ? (
        <Modal.Body>
          <p>
            <FormattedMessage id="staff.accounts.enrolment_intro" />
          </p>
          <img
            src={`data:image/svg+xml;base64,${btoa(enrolment.qr_svg)}`}
            alt={enrolment.otpauth_uri}
            width={200}
            height={200}
            className="d-block mx-auto mb-3"
          />
          <p className="small">
            <FormattedMessage id="staff.accounts.secret" />: <code>{enrolment.totp_secret}</code>
          </p>
          <p className="small mb-1">
            <FormattedMessage id="staff.accounts.recovery_codes" />
          </p>
          <ul className="list-unstyled small font-monospace columns-2">
            {enrolment.recovery_codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
        </Modal.Body>
      ) : null}
      <Modal.Footer>
        <Button onClick={onClose}>
          <FormattedMessage id="staff.accounts.enrolment_done" />
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
