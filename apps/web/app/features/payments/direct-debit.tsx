import { type Bundle, DIRECT_DEBIT_CODE } from "@app/contract";
import { useEffect, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useNavigate } from "react-router";
import { useApiForm } from "../../lib/use-api-form";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { TextField } from "../../ui/text-field";
import { confirmDirectDebit, startDirectDebit } from "./api";
import { NotOffered, usePrice, WithBundles } from "./bundles";
import { isTransientError } from "./use-payment-attempt";

export interface DirectDebitProps {
  /** The `?bundle=` of the URL (null when missing or not an id). */
  bundleId: number | null;
  newClientId?: () => string;
}

/** /directdebit (spec §2): SEPA direct debit in two steps, the account and phone, then the texted code. */
export function DirectDebit({ bundleId, newClientId }: DirectDebitProps) {
  return (
    <WithBundles>
      {(data) => {
        const bundle = data.bundles.find((candidate) => candidate.id === bundleId);
        if (!bundle) return <NotOffered messageId="error.bundle_unavailable" to="/credits" />;
        if (!data.methods.includes("directdebit")) {
          return (
            <NotOffered
              messageId="error.payment_method_unavailable"
              to={`/credits/${bundle.id}`}
              linkId="payments.other_method"
            />
          );
        }
        return <DirectDebitSteps bundle={bundle} newClientId={newClientId} />;
      }}
    </WithBundles>
  );
}

interface Verification {
  id: string;
  phone: string;
  expiresInSeconds: number;
}

function DirectDebitSteps({ bundle, newClientId }: { bundle: Bundle; newClientId?: (() => string) | undefined }) {
  const price = usePrice();
  const amount = price(bundle.price, bundle.currency);
  const [account, setAccount] = useState({ name: "", iban: "", phone: "" });
  const [verification, setVerification] = useState<Verification | null>(null);
  const [changing, setChanging] = useState(false);
  return (
    <>
      <p className="lead">
        <FormattedMessage id="payments.dd_intro" values={{ credits: bundle.credits, price: amount }} />
      </p>
      {verification ? (
        <CodeStep
          verification={verification}
          amount={amount}
          newClientId={newClientId}
          onChangeDetails={() => {
            setChanging(true);
            setVerification(null);
          }}
        />
      ) : (
        <AccountStep bundle={bundle} account={account} onChange={setAccount} onSent={setVerification} focusOnMount={changing} />
      )}
      <p className="mt-4 small">
        <Link to={`/credits/${bundle.id}`}>
          <FormattedMessage id="payments.other_method" />
        </Link>
      </p>
    </>
  );
}

type AccountField = "name" | "iban" | "phone";

/** Step 1: account holder, IBAN and mobile number; the server checks the IBAN and texts a code. */
function AccountStep({
  bundle,
  account,
  onChange,
  onSent,
  focusOnMount,
}: {
  bundle: Bundle;
  account: Record<AccountField, string>;
  onChange: (account: Record<AccountField, string>) => void;
  onSent: (verification: Verification) => void;
  /** Back from the code step ("Change details"): the button that was focused is gone. */
  focusOnMount: boolean;
}) {
  const intl = useIntl();
  const { formRef, handleSubmit, busy, errors, formError, clearError } = useApiForm<AccountField>({
    fields: ["name", "iban", "phone"],
    fieldOfCode: { iban_invalid: "iban", phone_invalid: "phone" },
  });
  useEffect(() => {
    if (focusOnMount) formRef.current?.querySelector<HTMLInputElement>("#dd-name")?.focus();
  }, [focusOnMount, formRef]);
  const set = (field: AccountField) => (value: string) => {
    onChange({ ...account, [field]: value });
    clearError(field);
  };
  const validate = () => {
    const problems: Partial<Record<AccountField, string>> = {};
    if (account.name.trim().length < 2) problems.name = intl.formatMessage({ id: "payments.dd_name_missing" });
    if (account.iban.replace(/\s/g, "").length < 15) problems.iban = intl.formatMessage({ id: "error.iban_invalid" });
    if (account.phone.replace(/\s/g, "").length < 8) problems.phone = intl.formatMessage({ id: "error.phone_invalid" });
    return problems;
  };
  const send = async () => {
    const answer = await startDirectDebit({
      bundle_id: bundle.id,
      name: account.name.trim(),
      iban: account.iban.replace(/\s/g, "").toUpperCase(),
      phone: account.phone.replace(/[\s-]/g, ""),
    });
    onSent({ id: answer.verification_id, phone: answer.phone, expiresInSeconds: answer.expires_in_seconds });
  };
  return (
    <form ref={formRef} onSubmit={handleSubmit(send, { validate })} noValidate>
      <FormAlert>{formError}</FormAlert>
      <TextField
        id="dd-name"
        label={<FormattedMessage id="payments.dd_name" />}
        value={account.name}
        onChange={set("name")}
        error={errors.name}
        autoComplete="name"
        maxLength={70}
        required
      />
      <TextField
        id="dd-iban"
        label={<FormattedMessage id="payments.dd_iban" />}
        value={account.iban}
        onChange={set("iban")}
        error={errors.iban}
        hint={<FormattedMessage id="payments.dd_iban_hint" />}
        autoComplete="off"
        maxLength={42}
        required
      />
      <TextField
        id="dd-phone"
        type="tel"
        inputMode="tel"
        label={<FormattedMessage id="payments.dd_phone" />}
        value={account.phone}
        onChange={set("phone")}
        error={errors.phone}
        hint={<FormattedMessage id="payments.dd_phone_hint" />}
        autoComplete="tel"
        maxLength={20}
        required
      />
      <BusyButton type="submit" busy={busy}>
        <FormattedMessage id="payments.dd_send_code" />
      </BusyButton>
    </form>
  );
}

/** Step 2: the one-time code; a right one creates the mandate and the payment, then the result page. */
function CodeStep({
  verification,
  amount,
  newClientId = () => crypto.randomUUID(),
  onChangeDetails,
}: {
  verification: Verification;
  amount: string;
  newClientId?: (() => string) | undefined;
  onChangeDetails: () => void;
}) {
  const intl = useIntl();
  const navigate = useNavigate();
  const [code, setCode] = useState("");
  // One client_id per confirmation attempt, kept when the answer was lost (the payment may exist).
  const clientId = useRef<string | null>(null);
  const { formRef, handleSubmit, busy, errors, formError, clearError } = useApiForm<"code">({
    fields: ["code"],
    fieldOfCode: { code_invalid: "code" },
  });
  // The first step's form is gone: the code field takes the focus, so that the member types at once.
  useEffect(() => formRef.current?.querySelector<HTMLInputElement>("#dd-code")?.focus(), [formRef]);
  const validate = () => (/^\d+$/.test(code.trim()) ? {} : { code: intl.formatMessage({ id: "error.code_invalid" }) });
  const confirm = async () => {
    clientId.current ??= newClientId();
    try {
      const { payment_id } = await confirmDirectDebit({
        verification_id: verification.id,
        code: code.trim(),
        client_id: clientId.current,
      });
      await navigate(`/transactions/${payment_id}`);
    } catch (caught) {
      if (!isTransientError(caught)) clientId.current = null;
      throw caught;
    }
  };
  return (
    <form ref={formRef} onSubmit={handleSubmit(confirm, { validate, stayBusy: true })} noValidate>
      <p role="status">
        <FormattedMessage id="payments.dd_code_sent" values={{ phone: verification.phone }} />
      </p>
      <FormAlert>{formError}</FormAlert>
      <TextField
        id="dd-code"
        inputMode="numeric"
        label={<FormattedMessage id="payments.dd_code" />}
        value={code}
        onChange={(value) => {
          setCode(value);
          clearError("code");
        }}
        error={errors.code}
        hint={
          <FormattedMessage
            id="payments.dd_code_hint"
            values={{ digits: DIRECT_DEBIT_CODE.digits, minutes: Math.max(1, Math.round(verification.expiresInSeconds / 60)) }}
          />
        }
        autoComplete="one-time-code"
        maxLength={12}
        required
      />
      <div className="d-flex flex-wrap gap-2">
        <BusyButton type="submit" busy={busy}>
          <FormattedMessage id="payments.dd_confirm" values={{ price: amount }} />
        </BusyButton>
        <button type="button" className="btn btn-link" onClick={onChangeDetails} disabled={busy}>
          <FormattedMessage id="payments.dd_change" />
        </button>
      </div>
    </form>
  );
}
