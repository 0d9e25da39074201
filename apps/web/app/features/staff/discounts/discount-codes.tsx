import { DISCOUNT_VALIDITIES, PAYMENT_METHODS, STAFF_DISCOUNTS_ENDPOINTS, type StaffDiscount } from "@app/contract";
import { type FormEvent, useRef, useState } from "react";
import { Button, Col, Form, Modal, Row, Table } from "react-bootstrap";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { errorMessage, fieldErrors } from "../../../lib/form-errors";
import { BusyButton } from "../../../ui/busy-button";
import { FormAlert } from "../../../ui/form-alert";
import { TextField } from "../../../ui/text-field";
import { useStaffMutation, useStaffQuery } from "../api";
import { ConfirmDialog } from "../confirm-dialog";
import { step, useShortcuts } from "../shortcuts";
import { HeaderRow } from "../table";

const DISCOUNTS = "/staff/api/discounts";

/**
 * The discount codes (spec §3; decision 022) with their uses: j/k move, Enter opens who used the code,
 * e ends it (after a confirmation), n goes to the new code's form.
 */
export function DiscountCodes({ discounts }: { discounts: StaffDiscount[] }) {
  const intl = useIntl();
  const [selected, setSelected] = useState(0);
  const [opened, setOpened] = useState<StaffDiscount | null>(null);
  const [ending, setEnding] = useState<StaffDiscount | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const newCode = useRef<HTMLInputElement>(null);
  const expire = useStaffMutation(STAFF_DISCOUNTS_ENDPOINTS.discountExpire, [DISCOUNTS]);
  const current = discounts[selected];
  useShortcuts({
    j: () => setSelected((i) => step(i, 1, discounts.length)),
    k: () => setSelected((i) => step(i, -1, discounts.length)),
    Enter: () => current && setOpened(current),
    e: () => current && !current.expired && setEnding(current),
    n: () => newCode.current?.focus(),
  });
  const end = () => {
    if (!ending) return;
    expire.mutate(
      { params: { codeId: ending.id } },
      {
        onSuccess: () => {
          setNotice(intl.formatMessage({ id: "staff.discounts.expired_done" }, { code: ending.code }));
          setEnding(null);
        },
      },
    );
  };
  return (
    <>
      <p className="small text-body-secondary">
        <FormattedMessage id="staff.discounts.shortcuts" />
      </p>
      {notice ? <FormAlert variant="success">{notice}</FormAlert> : null}
      {expire.error ? <FormAlert>{errorMessage(expire.error, intl)}</FormAlert> : null}
      <Table responsive hover size="sm" className="align-middle">
        <HeaderRow
          ids={[
            "staff.discounts.code",
            "staff.discounts.kind",
            "staff.discounts.percentage",
            "staff.discounts.validity",
            "staff.discounts.expires",
            "staff.discounts.status",
            "staff.discounts.uses",
            "staff.discounts.actions",
          ]}
        />
        <tbody>
          {discounts.map((discount, index) => (
            <tr
              key={discount.id}
              className={index === selected ? "table-active" : ""}
              aria-selected={index === selected}
              onClick={() => setSelected(index)}
            >
              <td>
                <Button variant="link" className="p-0 font-monospace" onClick={() => setOpened(discount)}>
                  {discount.code}
                </Button>
              </td>
              <td>
                <FormattedMessage id={`staff.discounts.kind_${discount.kind}`} />
              </td>
              <td>{discount.value_percentage}%</td>
              <td>
                <FormattedMessage id={`staff.discounts.validity_${discount.validity}`} />
              </td>
              <td>
                {discount.expires_at ? (
                  <FormattedDate value={discount.expires_at} dateStyle="medium" timeStyle="short" />
                ) : (
                  <FormattedMessage id="staff.discounts.no_end" />
                )}
              </td>
              <td>
                <FormattedMessage id={discount.expired ? "staff.discounts.status_expired" : "staff.discounts.status_active"} />
              </td>
              <td>
                {discount.redeemed} / {discount.reserved}
              </td>
              <td>
                {discount.expired ? null : (
                  <Button size="sm" variant="outline-danger" onClick={() => setEnding(discount)}>
                    <FormattedMessage id="staff.discounts.expire" />
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Redemptions discount={opened} onClose={() => setOpened(null)} />
      <ConfirmDialog
        id="end-code-title"
        show={ending !== null}
        title={<FormattedMessage id="staff.discounts.expire" />}
        confirm={<FormattedMessage id="staff.discounts.confirm" />}
        busy={expire.isPending}
        onConfirm={end}
        onCancel={() => setEnding(null)}
      >
        <FormattedMessage id="staff.discounts.expire_confirm" values={{ code: ending?.code ?? "" }} />
      </ConfirmDialog>
      <h2 className="h5 mt-4">
        <FormattedMessage id="staff.discounts.new_code" />
      </h2>
      <NewCodeForm
        codeInput={newCode}
        onCreated={(code) => setNotice(intl.formatMessage({ id: "staff.discounts.created" }, { code }))}
      />
    </>
  );
}

/** Who used a code: each payment that held or redeemed it. */
function Redemptions({ discount, onClose }: { discount: StaffDiscount | null; onClose: () => void }) {
  const intl = useIntl();
  const uses = useStaffQuery(
    STAFF_DISCOUNTS_ENDPOINTS.discountRedemptions,
    { params: { codeId: discount?.id ?? 0 } },
    { enabled: discount !== null },
  );
  const rows = uses.data?.redemptions ?? [];
  return (
    <Modal show={discount !== null} onHide={onClose} size="lg" aria-labelledby="redemptions-title">
      <Modal.Header closeButton>
        <Modal.Title id="redemptions-title">
          <FormattedMessage id="staff.discounts.redemptions" values={{ code: discount?.code ?? "" }} />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {uses.error ? <FormAlert>{errorMessage(uses.error, intl)}</FormAlert> : null}
        {uses.data && rows.length === 0 ? (
          <p className="mb-0">
            <FormattedMessage id="staff.discounts.no_redemptions" />
          </p>
        ) : (
          <Table size="sm" responsive className="mb-0">
            <HeaderRow
              ids={["staff.discounts.member", "staff.discounts.order", "staff.discounts.status", "staff.discounts.created_at"]}
            />
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>{row.user_id === null ? intl.formatMessage({ id: "staff.discounts.erased" }) : `#${row.user_id}`}</td>
                  <td>#{row.payment_id}</td>
                  <td>
                    <FormattedMessage id={`staff.discounts.use_${row.status}`} />
                  </td>
                  <td>
                    <FormattedDate value={row.redeemed_at ?? row.created_at} dateStyle="medium" timeStyle="short" />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button onClick={onClose}>
          <FormattedMessage id="staff.discounts.close" />
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

const CODE_FIELDS = [
  "code",
  "value_percentage",
  "validity",
  "expires_at",
  "country",
  "currency",
  "minimum_order_cents",
  "payment_methods",
  "user_id",
] as const;

const orNull = (value: string) => (value.trim() === "" ? null : value.trim());
const numberOrNull = (value: string) => (value.trim() === "" ? null : Number(value));

function NewCodeForm({
  codeInput,
  onCreated,
}: {
  codeInput: React.RefObject<HTMLInputElement | null>;
  onCreated: (code: string) => void;
}) {
  const intl = useIntl();
  const create = useStaffMutation(STAFF_DISCOUNTS_ENDPOINTS.discountCreate, [DISCOUNTS]);
  const empty = {
    code: "",
    value_percentage: "10",
    validity: "once_per_member" as (typeof DISCOUNT_VALIDITIES)[number],
    expires_at: "",
    country: "",
    currency: "",
    minimum_order_cents: "",
    user_id: "",
  };
  const [form, setForm] = useState(empty);
  const [methods, setMethods] = useState<string[]>([]);
  const [firstOnly, setFirstOnly] = useState(false);
  const fields = fieldErrors(create.error, CODE_FIELDS, { discount_code_taken: "code" });
  const whole = create.error && Object.keys(fields).length === 0 ? errorMessage(create.error, intl) : null;
  const setField = (key: keyof typeof empty) => (value: string) => setForm((current) => ({ ...current, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        body: {
          code: form.code,
          value_percentage: Number(form.value_percentage),
          validity: form.validity,
          // datetime-local is the browser's local time; the server takes an instant.
          expires_at: form.expires_at ? new Date(form.expires_at).toISOString() : null,
          country: orNull(form.country)?.toUpperCase() ?? null,
          currency: orNull(form.currency)?.toUpperCase() ?? null,
          minimum_order_cents: numberOrNull(form.minimum_order_cents),
          payment_methods: methods.length ? (methods as (typeof PAYMENT_METHODS)[number][]) : null,
          first_purchase_only: firstOnly,
          user_id: numberOrNull(form.user_id),
        },
      },
      {
        onSuccess: ({ discount }) => {
          setForm(empty);
          setMethods([]);
          setFirstOnly(false);
          onCreated(discount.code);
        },
      },
    );
  };
  return (
    <Form onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: "staff.discounts.new_code" })}>
      {whole ? <FormAlert>{whole}</FormAlert> : null}
      <Row>
        <Col md={4}>
          <Form.Group controlId="discount-code" className="mb-3">
            <Form.Label>
              <FormattedMessage id="staff.discounts.code" />
            </Form.Label>
            <Form.Control
              ref={codeInput}
              className="font-monospace"
              value={form.code}
              onChange={(event) => setField("code")(event.target.value)}
              isInvalid={!!fields.code}
              aria-invalid={fields.code ? true : undefined}
              aria-describedby={fields.code ? "discount-code-error" : undefined}
            />
            <Form.Control.Feedback type="invalid" id="discount-code-error">
              {fields.code}
            </Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={4}>
          <TextField
            id="discount-percentage"
            inputMode="numeric"
            label={<FormattedMessage id="staff.discounts.percentage" />}
            value={form.value_percentage}
            onChange={setField("value_percentage")}
            error={fields.value_percentage}
          />
        </Col>
        <Col md={4}>
          <Form.Group controlId="discount-validity" className="mb-3">
            <Form.Label>
              <FormattedMessage id="staff.discounts.validity" />
            </Form.Label>
            <Form.Select value={form.validity} onChange={(event) => setField("validity")(event.target.value)}>
              {DISCOUNT_VALIDITIES.map((validity) => (
                <option key={validity} value={validity}>
                  {intl.formatMessage({ id: `staff.discounts.validity_${validity}` })}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        <Col md={4}>
          <Form.Group controlId="discount-expires" className="mb-3">
            <Form.Label>
              <FormattedMessage id="staff.discounts.expires" />
            </Form.Label>
            <Form.Control
              type="datetime-local"
              value={form.expires_at}
              onChange={(event) => setField("expires_at")(event.target.value)}
              isInvalid={!!fields.expires_at}
              aria-invalid={fields.expires_at ? true : undefined}
            />
            <Form.Control.Feedback type="invalid">{fields.expires_at}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={4}>
          <TextField
            id="discount-country"
            label={<FormattedMessage id="staff.discounts.country" />}
            value={form.country}
            onChange={setField("country")}
            maxLength={2}
            error={fields.country}
          />
        </Col>
        <Col md={4}>
          <TextField
            id="discount-currency"
            label={<FormattedMessage id="staff.discounts.currency" />}
            value={form.currency}
            onChange={setField("currency")}
            maxLength={3}
            error={fields.currency}
          />
        </Col>
        <Col md={4}>
          <TextField
            id="discount-minimum"
            inputMode="numeric"
            label={<FormattedMessage id="staff.discounts.minimum_order" />}
            value={form.minimum_order_cents}
            onChange={setField("minimum_order_cents")}
            error={fields.minimum_order_cents}
          />
        </Col>
        <Col md={4}>
          <TextField
            id="discount-member"
            inputMode="numeric"
            label={<FormattedMessage id="staff.discounts.member_id" />}
            value={form.user_id}
            onChange={setField("user_id")}
            error={fields.user_id}
          />
        </Col>
      </Row>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">
          <FormattedMessage id="staff.discounts.methods" />
        </legend>
        {PAYMENT_METHODS.map((method) => (
          <Form.Check
            inline
            key={method}
            id={`discount-method-${method}`}
            label={intl.formatMessage({ id: `payments.method.${method}` })}
            checked={methods.includes(method)}
            onChange={(event) => setMethods((m) => (event.target.checked ? [...m, method] : m.filter((x) => x !== method)))}
          />
        ))}
      </fieldset>
      <Form.Check
        id="discount-first"
        className="mb-3"
        label={intl.formatMessage({ id: "staff.discounts.first_purchase_only" })}
        checked={firstOnly}
        onChange={(event) => setFirstOnly(event.target.checked)}
      />
      <BusyButton type="submit" busy={create.isPending}>
        <FormattedMessage id="staff.discounts.create" />
      </BusyButton>
    </Form>
  );
}
