import { type Discount, discountedCents, FORM_METHODS, type PaymentMethod } from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useId, useState } from "react";
import { Button, Form, InputGroup } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../lib/form-errors";
import { discountCheckQuery, discountCodesQuery } from "./api";
import { type ShownDiscount, useShownDiscount } from "./discount-provider";

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
}

/**
 * Spec §2 discount code selector, on the checkout: the member's usable codes (GET
 * /api/discountcodes.php) with the shown discount pre-selected, "No discount", and a field to type
 * another code. The chosen code is checked for this bundle and payment method (GET
 * /api/discountcode.php?code=&bundle_id=&method=), again whenever the method changes (a code may be
 * limited to some methods); a refusal shows the server's message ("Code not found", "Code already
 * used", ...) and no discount is applied. The checkout learns the code and the price after it
 * through `onChange`.
 */
export function DiscountCodeSelector({ bundle, method, onChange }: DiscountCodeSelectorProps) {
  const intl = useIntl();
  const id = useId();
  const shown = useShownDiscount();
  const codes = useQuery(discountCodesQuery);
  const options = codeOptions(shown, codes.data?.discounts ?? []);
  // undefined: not chosen yet (the shown discount, else the best code); null: "No discount".
  const [choice, setChoice] = useState<string | null | undefined>(undefined);
  const [typed, setTyped] = useState("");
  // A code the member typed and applied; it counts until a listed option is picked.
  const [applied, setApplied] = useState<string | null>(null);
  const listed = choice === undefined ? (options[0]?.code ?? null) : choice;
  const code = applied ?? listed;

  // Direct debit pays through the site's own form, which takes no code.
  const formMethod = method !== null && FORM_METHODS.includes(method);
  const active = code !== null && method !== null && !formMethod;
  const check = useQuery({ ...discountCheckQuery(code ?? "", bundle.id, method ?? "ideal"), enabled: active });
  const checking = active && check.isFetching;
  const answer = active && !checking ? check.data : undefined;
  const discount = answer?.discount ?? null;
  // The server's price for this bundle, else the same rule the server uses.
  const price = discount
    ? (answer?.price?.discounted ?? discountedCents(Math.round(bundle.price * 100), discount.value_percentage) / 100)
    : null;
  const discountCode = discount?.code ?? null;

  // Paying waits for the list too: its best code may be pre-selected when it arrives.
  const waiting = checking || (!formMethod && codes.isPending);
  useEffect(() => {
    onChange(discountCode !== null && price !== null ? { code: discountCode, price } : null, waiting);
  }, [onChange, discountCode, price, waiting]);

  const failure = active && !checking && check.isError ? errorMessage(check.error, intl) : "";
  const apply = () => {
    const value = typed.trim();
    if (value) setApplied(value);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter applies the code instead of paying.
    if (event.key !== "Enter") return;
    event.preventDefault();
    apply();
  };
  const pick = (next: string | null) => {
    setApplied(null);
    setChoice(next);
  };
  const format = (amount: number) => intl.formatNumber(amount, { style: "currency", currency: bundle.currency });
  const errorId = `${id}-error`;
  const statusId = `${id}-status`;

  return (
    <section className="mb-4" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="h5">
        <FormattedMessage id="discounts.selector_heading" />
      </h2>
      {formMethod ? (
        <p className="text-body-secondary">
          <FormattedMessage id="discounts.not_with_direct_debit" />
        </p>
      ) : (
        <>
          {options.length > 0 ? (
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
                      name={`${id}-code`}
                      value={option.code}
                      checked={applied === null && listed !== null && sameCode(listed, option.code)}
                      onChange={() => pick(option.code)}
                    />
                    <span>
                      <FormattedMessage
                        id="discounts.option"
                        values={{ code: option.code, percentage: option.value_percentage }}
                      />
                      {option.kind !== "code" ? (
                        <span className="text-body-secondary small ms-2">
                          <FormattedMessage
                            id={option.kind === "time_bonus" ? "discounts.kind_time_bonus" : "discounts.kind_welcome"}
                          />
                        </span>
                      ) : null}
                    </span>
                  </label>
                ))}
                <label className="list-group-item d-flex align-items-center gap-3 py-2">
                  <input
                    type="radio"
                    className="form-check-input flex-shrink-0 mt-0"
                    name={`${id}-code`}
                    value=""
                    checked={applied === null && listed === null}
                    onChange={() => pick(null)}
                  />
                  <FormattedMessage id="discounts.option_none" />
                </label>
              </div>
            </fieldset>
          ) : null}
          <Form.Label htmlFor={`${id}-typed`}>
            <FormattedMessage id="discounts.code_label" />
          </Form.Label>
          <InputGroup className="mb-2" style={{ maxWidth: 420 }}>
            <Form.Control
              id={`${id}-typed`}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              onKeyDown={onKeyDown}
              maxLength={64}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              isInvalid={applied !== null && failure !== ""}
              aria-invalid={applied !== null && failure !== "" ? true : undefined}
              aria-describedby={applied !== null && failure !== "" ? errorId : undefined}
            />
            <Button variant="outline-primary" onClick={apply} disabled={typed.trim() === ""}>
              <FormattedMessage id="discounts.code_apply" />
            </Button>
          </InputGroup>
          {failure ? (
            // An alert when the member chose the code; a pre-selected one that does not apply is only said.
            <p
              id={errorId}
              className="text-danger-emphasis small mb-2"
              role={choice === undefined && applied === null ? undefined : "alert"}
            >
              {failure}
            </p>
          ) : null}
          <p id={statusId} role="status" className="small mb-0">
            {checking ? (
              <FormattedMessage id="discounts.checking" />
            ) : discountCode !== null && price !== null ? (
              <span className="text-success-emphasis">
                <FormattedMessage
                  id="discounts.applied_price"
                  values={{ code: discountCode, price: format(price), original: format(bundle.price) }}
                />
              </span>
            ) : null}
          </p>
        </>
      )}
    </section>
  );
}
