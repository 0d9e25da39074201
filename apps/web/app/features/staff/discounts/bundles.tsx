import { STAFF_DISCOUNTS_ENDPOINTS, type StaffBundle } from "@app/contract";
import { type FormEvent, useState } from "react";
import { Button, Col, Form, Row, Table } from "react-bootstrap";
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { ApiCallError } from "../../../lib/api";
import { errorMessage, fieldErrors } from "../../../lib/form-errors";
import { BusyButton } from "../../../ui/busy-button";
import { FormAlert } from "../../../ui/form-alert";
import { TextField } from "../../../ui/text-field";
import { useStaffMutation } from "../api";
import { ConfirmDialog } from "../confirm-dialog";
import { HeaderRow } from "../table";

const DISCOUNTS = "/staff/api/discounts";

/** The credit bundles: offered and retired ones with their prices and purchases; add one, retire one. */
export function Bundles({ bundles }: { bundles: StaffBundle[] }) {
  const intl = useIntl();
  const [retiring, setRetiring] = useState<StaffBundle | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const retire = useStaffMutation(STAFF_DISCOUNTS_ENDPOINTS.bundleRetire, [DISCOUNTS]);
  const confirmRetire = () => {
    if (!retiring) return;
    retire.mutate(
      { params: { bundleId: retiring.id } },
      {
        onSuccess: () => {
          setNotice(intl.formatMessage({ id: "staff.discounts.retired_done" }, { credits: retiring.credits }));
          setRetiring(null);
        },
      },
    );
  };
  return (
    <>
      {notice ? <FormAlert variant="success">{notice}</FormAlert> : null}
      {retire.error ? <FormAlert>{errorMessage(retire.error, intl)}</FormAlert> : null}
      <Table responsive hover size="sm" className="align-middle">
        <HeaderRow
          ids={[
            "staff.discounts.credits",
            "staff.discounts.prices",
            "staff.discounts.best_value",
            "staff.discounts.status",
            "staff.discounts.purchases",
            "staff.discounts.actions",
          ]}
        />
        <tbody>
          {bundles.map((bundle) => (
            <tr key={bundle.id} className={bundle.active ? "" : "text-body-secondary"}>
              <td>{bundle.credits}</td>
              <td>
                {Object.entries(bundle.prices).map(([currency, cents], index) => (
                  <span key={currency}>
                    {index > 0 ? " · " : null}
                    <FormattedNumber value={cents / 100} style="currency" currency={currency} />
                  </span>
                ))}
              </td>
              <td>
                {bundle.best_value ? (
                  <>
                    <span aria-hidden="true">★</span>
                    <span className="visually-hidden">
                      <FormattedMessage id="staff.settings.yes" />
                    </span>
                  </>
                ) : null}
              </td>
              <td>
                <FormattedMessage id={bundle.active ? "staff.discounts.offered" : "staff.discounts.retired"} />
              </td>
              <td>{bundle.purchases}</td>
              <td>
                {bundle.active ? (
                  <Button size="sm" variant="outline-danger" onClick={() => setRetiring(bundle)}>
                    <FormattedMessage id="staff.discounts.retire" />
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <ConfirmDialog
        id="retire-title"
        show={retiring !== null}
        title={<FormattedMessage id="staff.discounts.retire" />}
        confirm={<FormattedMessage id="staff.discounts.confirm" />}
        busy={retire.isPending}
        onConfirm={confirmRetire}
        onCancel={() => setRetiring(null)}
      >
        <FormattedMessage id="staff.discounts.retire_confirm" values={{ credits: retiring?.credits ?? 0 }} />
      </ConfirmDialog>
      <h2 className="h5 mt-4">
        <FormattedMessage id="staff.discounts.new_bundle" />
      </h2>
      <NewBundleForm
        onCreated={(credits) => setNotice(intl.formatMessage({ id: "staff.discounts.bundle_created" }, { credits }))}
      />
    </>
  );
}

function NewBundleForm({ onCreated }: { onCreated: (credits: number) => void }) {
  const intl = useIntl();
  const create = useStaffMutation(STAFF_DISCOUNTS_ENDPOINTS.bundleCreate, [DISCOUNTS]);
  const [credits, setCredits] = useState("");
  const [prices, setPrices] = useState<{ currency: string; cents: string }[]>([{ currency: "EUR", cents: "" }]);
  const [bestValue, setBestValue] = useState(false);
  const fields = fieldErrors(create.error, ["credits"] as const);
  // A price's problem comes under its currency's key (prices.EUR) or the whole list's (prices).
  const serverFields = create.error instanceof ApiCallError ? (create.error.body?.fields ?? {}) : {};
  const priceProblem = Object.entries(serverFields).find(([field]) => field === "prices" || field.startsWith("prices."))?.[1];
  const whole = create.error && !fields.credits && !priceProblem ? errorMessage(create.error, intl) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        body: {
          credits: Number(credits),
          prices: Object.fromEntries(
            prices.filter((p) => p.currency.trim()).map((p) => [p.currency.trim().toUpperCase(), Number(p.cents)]),
          ),
          best_value: bestValue,
        },
      },
      {
        onSuccess: ({ bundle }) => {
          setCredits("");
          setPrices([{ currency: "EUR", cents: "" }]);
          setBestValue(false);
          onCreated(bundle.credits);
        },
      },
    );
  };
  return (
    <Form
      onSubmit={submit}
      noValidate
      aria-label={intl.formatMessage({ id: "staff.discounts.new_bundle" })}
      style={{ maxWidth: 560 }}
    >
      {whole ? <FormAlert>{whole}</FormAlert> : null}
      <TextField
        id="bundle-credits"
        inputMode="numeric"
        label={<FormattedMessage id="staff.discounts.credits" />}
        value={credits}
        onChange={setCredits}
        error={fields.credits}
      />
      <fieldset className="mb-3" aria-describedby={priceProblem ? "bundle-prices-error" : undefined}>
        <legend className="form-label fs-6">
          <FormattedMessage id="staff.discounts.prices" />
        </legend>
        {prices.map((price, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows being typed have no id; their order is theirs.
          <Row className="g-2 mb-2" key={index}>
            <Col xs={4}>
              <Form.Control
                aria-label={intl.formatMessage({ id: "staff.discounts.price_currency" })}
                maxLength={3}
                value={price.currency}
                onChange={(event) =>
                  setPrices((all) => all.map((p, i) => (i === index ? { ...p, currency: event.target.value } : p)))
                }
              />
            </Col>
            <Col xs={8}>
              <Form.Control
                aria-label={intl.formatMessage({ id: "staff.discounts.price_cents" })}
                inputMode="numeric"
                placeholder={intl.formatMessage({ id: "staff.discounts.price_cents" })}
                value={price.cents}
                onChange={(event) =>
                  setPrices((all) => all.map((p, i) => (i === index ? { ...p, cents: event.target.value } : p)))
                }
              />
            </Col>
          </Row>
        ))}
        {priceProblem ? (
          <div className="invalid-feedback d-block" id="bundle-prices-error">
            {priceProblem}
          </div>
        ) : null}
        <Button size="sm" variant="outline-dark" onClick={() => setPrices((all) => [...all, { currency: "", cents: "" }])}>
          <FormattedMessage id="staff.discounts.add_price" />
        </Button>
      </fieldset>
      <Form.Check
        id="bundle-best"
        className="mb-3"
        label={intl.formatMessage({ id: "staff.discounts.best_value" })}
        checked={bestValue}
        onChange={(event) => setBestValue(event.target.checked)}
      />
      <BusyButton type="submit" busy={create.isPending}>
        <FormattedMessage id="staff.discounts.create_bundle" />
      </BusyButton>
    </Form>
  );
}
