import {
  type CheckoutDiscounts,
  type Discount,
  type DiscountCodeResponse,
  discountedCents,
  FORM_METHODS,
  type PaymentMethod,
  preselectedCode,
} from "@app/contract";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useState } from "react";
import { Button, Form, InputGroup, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../lib/form-errors";
import { wrapTab } from "../../ui/tab-wrap";
import { discountCheckQuery, discountCodesQuery } from "./api";
import { type ShownDiscount, useDiscountsSettled, useShownDiscount } from "./discount-provider";

/** A code the member can pick: one of the usable codes, or the discount the site shows (spec §4). */
interface CodeOption {
  code: string;
  value_percentage: number;
  kind: Discount["kind"];
}

const sameCode = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The shown discount first (it is what the member was promised), then the usable codes, best first, once each. */
export function codeOptions(shown: Pick<ShownDiscount, "code" | "value_percentage" | "kind"> | null, codes: readonly Discount[]) {
  const options: CodeOption[] = shown ? [{ code: shown.code, value_percentage: shown.value_percentage, kind: shown.kind }] : [];
  for (const { code, value_percentage, kind } of codes) {
    if (!options.some((option) => sameCode(option.code, code))) options.push({ code, value_percentage, kind });
  }
  return options;
}

export interface DiscountCodeSelectorProps {
  bundle: { id: number; price: number; currency: string };
  method: PaymentMethod | null;
  onChange(discount: { code: string; price: number } | null, checking: boolean): void;
  /**
   * The member's discounts the page was rendered with on the server (issue #29): the selector starts
   * from them (no call to wait for) and keeps their shown discount until the discount provider knows its own.
   */
  initial?: CheckoutDiscounts | null | undefined;
}

/** A code that applies to this bundle and method: its percentage and the price after it (major units). */
interface Valid {
  code: string;
  percentage: number;
  price: number;
}

/** Where a code's check stands: not asked, being asked, applies, or refused with the server's message. */
type Outcome =
  | { state: "none" }
  | { state: "checking" }
  | { state: "valid"; valid: Valid }
  | { state: "refused"; message: string };

/** The outcome of checking `code` (GET /api/discountcode.php with the bundle and method). */
function useCodeCheck(
  code: string | null,
  bundle: DiscountCodeSelectorProps["bundle"],
  method: PaymentMethod | null,
  on: boolean,
  initial: CheckoutDiscounts["preselected"] = null,
) {
  const intl = useIntl();
  const enabled = on && code !== null && method !== null;
  // The server's check of the same code, bundle and method (issue #29), else the browser asks.
  const rendered =
    initial && initial.code === code && initial.bundle_id === bundle.id && initial.method === method ? initial.answer : undefined;
  const check = useQuery({ ...discountCheckQuery(code ?? "", bundle.id, method ?? "ideal"), enabled, initialData: rendered });
  return outcomeOf(check, enabled, bundle, (error) => errorMessage(error, intl));
}

function outcomeOf(
  check: UseQueryResult<DiscountCodeResponse>,
  enabled: boolean,
  bundle: DiscountCodeSelectorProps["bundle"],
  message: (error: unknown) => string,
): Outcome {
  if (!enabled) return { state: "none" };
  if (check.isFetching) return { state: "checking" };
  const discount = check.data?.discount;
  if (discount) {
    // The server's price for this bundle, else the same rule the server uses.
    const price =
      check.data?.price?.discounted ?? discountedCents(Math.round(bundle.price * 100), discount.value_percentage) / 100;
    return { state: "valid", valid: { code: discount.code, percentage: discount.value_percentage, price } };
  }
  if (check.isError) return { state: "refused", message: message(check.error) };
  return { state: "checking" };
}

const validOf = (outcome: Outcome) => (outcome.state === "valid" ? outcome.valid : null);

/**
 * Spec §2 discount code selector, on the checkout. The page says which discount applies and what the
 * member pays; "Choose a discount code" opens the selector as a modal (focus inside while open, back
 * on the button after): the member's usable codes (GET /api/discountcodes.php) with the shown discount
 * pre-selected, "No discount", and a field to type another code.
 *
 * The best valid discount is kept (issue #29): a typed code is checked for this bundle and payment method
 * (again whenever the method changes: a code may be limited to some) and replaces the listed choice only
 * when it is valid and at least as good; a refused code says the server's message ("Code not found",
 * "Code already used", ...) and a worse one says which code stays applied, and why. Picking a listed
 * option (or "No discount") is the member's explicit choice and always counts. The checkout learns the
 * code and the price after it through `onChange`.
 */
export function DiscountCodeSelector({ bundle, method, onChange, initial = null }: DiscountCodeSelectorProps) {
  const id = useId();
  const provided = useShownDiscount();
  const shown = useDiscountsSettled() ? provided : (provided ?? initial?.shown ?? null);
  const codes = useQuery(initial ? { ...discountCodesQuery, initialData: { discounts: initial.codes } } : discountCodesQuery);
  const options = codeOptions(shown, codes.data?.discounts ?? []);
  // undefined: not chosen yet (the shown discount, else the best code); null: "No discount".
  const [choice, setChoice] = useState<string | null | undefined>(undefined);
  const [typed, setTyped] = useState("");
  // The code the member typed and applied last; it competes with the listed choice until one is picked.
  const [tried, setTried] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const listed = choice === undefined ? preselectedCode(shown, codes.data?.discounts ?? []) : choice;

  // Direct debit pays through the site's own form, which takes no code.
  const formMethod = method !== null && FORM_METHODS.includes(method);
  const listedOutcome = useCodeCheck(listed, bundle, method, !formMethod, initial?.preselected);
  const triedOutcome = useCodeCheck(tried, bundle, method, !formMethod);
  const listedValid = validOf(listedOutcome);
  const triedValid = validOf(triedOutcome);
  const triedWins = triedValid !== null && (listedValid === null || triedValid.price <= listedValid.price);
  const applied = triedWins ? triedValid : listedValid;
  const checking = listedOutcome.state === "checking" || triedOutcome.state === "checking";

  // Paying waits for the list too: its best code may be pre-selected when it arrives.
  const waiting = checking || (!formMethod && codes.isPending);
  const appliedCode = applied?.code ?? null;
  const appliedPrice = applied?.price ?? null;
  useEffect(() => {
    onChange(appliedCode !== null && appliedPrice !== null ? { code: appliedCode, price: appliedPrice } : null, waiting);
  }, [onChange, appliedCode, appliedPrice, waiting]);

  const apply = () => {
    const value = typed.trim();
    if (value) setTried(value);
  };
  const pick = (next: string | null) => {
    setTried(null);
    setChoice(next);
  };
  const intl = useIntl();
  const format = (amount: number) => intl.formatNumber(amount, { style: "currency", currency: bundle.currency });

  if (formMethod) {
    return (
      <section className="mb-4" aria-labelledby={`${id}-heading`}>
        <h2 id={`${id}-heading`} className="h5">
          <FormattedMessage id="discounts.selector_heading" />
        </h2>
        <p className="text-body-secondary">
          <FormattedMessage id="discounts.not_with_direct_debit" />
        </p>
      </section>
    );
  }

  // What became of the typed code: refused (and what still applies), or worse than what applies.
  const errorId = `${id}-error`;
  const triedFailure = tried !== null && triedOutcome.state === "refused" ? triedOutcome.message : "";
  let notice: ReactNode = null;
  if (triedFailure) {
    notice = (
      <>
        <p id={errorId} className="text-danger-emphasis small mb-1" role="alert">
          {triedFailure}
        </p>
        {applied ? (
          <p className="small mb-0">
            <FormattedMessage id="discounts.still_applies" values={{ code: applied.code }} />
          </p>
        ) : null}
      </>
    );
  } else if (triedValid && !triedWins && listedValid) {
    notice = (
      <p className="small mb-0" role="status">
        <FormattedMessage
          id="discounts.worse_code"
          values={{
            code: triedValid.code,
            percentage: triedValid.percentage,
            best: listedValid.code,
            bestPercentage: listedValid.percentage,
          }}
        />
      </p>
    );
  }
  // A pre-selected code that does not apply to this order is only said (the member did not choose it).
  const listedFailure = tried === null && listedOutcome.state === "refused" ? listedOutcome.message : "";

  return (
    <section className="mb-4" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="h5">
        <FormattedMessage id="discounts.selector_heading" />
      </h2>
      <p role="status" className="mb-2">
        {checking ? (
          <FormattedMessage id="discounts.checking" />
        ) : applied ? (
          <span className="text-success-emphasis">
            <FormattedMessage
              id="discounts.applied_price"
              values={{ code: applied.code, price: format(applied.price), original: format(bundle.price) }}
            />
          </span>
        ) : options.length > 0 || tried !== null ? (
          <FormattedMessage id="discounts.none_applies" />
        ) : null}
      </p>
      {listedFailure ? <p className="text-danger-emphasis small mb-2">{listedFailure}</p> : null}
      {open ? null : <div className="mb-2">{notice}</div>}
      <Button variant="outline-primary" onClick={() => setOpen(true)}>
        <FormattedMessage id="discounts.open_selector" />
      </Button>
      <Modal show={open} onHide={() => setOpen(false)} onKeyDown={wrapTab} centered aria-labelledby={`${id}-title`}>
        <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "alerts.close" })}>
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            <FormattedMessage id="discounts.selector_legend" />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {options.length > 0 ? (
            <CodeList
              name={`${id}-code`}
              options={options}
              checked={tried !== null && triedWins ? undefined : listed}
              onPick={pick}
            />
          ) : null}
          <TypedCode
            id={`${id}-typed`}
            value={typed}
            onChange={setTyped}
            onApply={apply}
            invalid={triedFailure !== ""}
            errorId={errorId}
          />
          {notice}
        </Modal.Body>
        <Modal.Footer>
          <Button onClick={() => setOpen(false)}>
            <FormattedMessage id="discounts.selector_done" />
          </Button>
        </Modal.Footer>
      </Modal>
    </section>
  );
}

/** The listed codes and "No discount" as radios; `checked` undefined: none of them (a typed code applies). */
function CodeList({
  name,
  options,
  checked,
  onPick,
}: {
  name: string;
  options: CodeOption[];
  checked: string | null | undefined;
  onPick(code: string | null): void;
}) {
  return (
    <fieldset className="mb-3">
      <legend className="visually-hidden">
        <FormattedMessage id="discounts.selector_legend" />
      </legend>
      <div className="list-group">
        {options.map((option) => (
          <label key={option.code} className="list-group-item d-flex align-items-center gap-3 py-2">
            <input
              type="radio"
              className="form-check-input flex-shrink-0 mt-0"
              name={name}
              value={option.code}
              checked={typeof checked === "string" && sameCode(checked, option.code)}
              onChange={() => onPick(option.code)}
            />
            <span>
              <FormattedMessage id="discounts.option" values={{ code: option.code, percentage: option.value_percentage }} />
              {option.kind !== "code" ? (
                <span className="text-body-secondary small ms-2">
                  <FormattedMessage id={option.kind === "time_bonus" ? "discounts.kind_time_bonus" : "discounts.kind_welcome"} />
                </span>
              ) : null}
            </span>
          </label>
        ))}
        <label className="list-group-item d-flex align-items-center gap-3 py-2">
          <input
            type="radio"
            className="form-check-input flex-shrink-0 mt-0"
            name={name}
            value=""
            checked={checked === null}
            onChange={() => onPick(null)}
          />
          <FormattedMessage id="discounts.option_none" />
        </label>
      </div>
    </fieldset>
  );
}

/** "Do you have a discount code?" with Apply; Enter applies it (it does not pay). */
function TypedCode({
  id,
  value,
  onChange,
  onApply,
  invalid,
  errorId,
}: {
  id: string;
  value: string;
  onChange(value: string): void;
  onApply(): void;
  invalid: boolean;
  errorId: string;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    onApply();
  };
  return (
    <>
      <Form.Label htmlFor={id}>
        <FormattedMessage id="discounts.code_label" />
      </Form.Label>
      <InputGroup className="mb-2">
        <Form.Control
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          maxLength={64}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          isInvalid={invalid}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? errorId : undefined}
        />
        <Button variant="outline-primary" onClick={onApply} disabled={value.trim() === ""}>
          <FormattedMessage id="discounts.code_apply" />
        </Button>
      </InputGroup>
    </>
  );
}
