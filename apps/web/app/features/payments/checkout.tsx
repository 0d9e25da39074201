import { type Bundle, type BundlesResponse, FORM_METHODS, type PaymentMethod } from "@app/contract";
import { type FormEvent, type ReactNode, useCallback, useState } from "react";
import { FormattedMessage } from "react-intl";
import { Link, useNavigate } from "react-router";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { createPayment } from "./api";
import { DiscountedPrice, NotOffered, usePrice, WithBundles } from "./bundles";
import { chosenMethod, MethodLabel, methodFromUrl, useOfferedMethods } from "./methods";
import { safeCheckoutUrl } from "./safe-urls";
import { returnQuery } from "./session";
import { usePaymentAttempt } from "./use-payment-attempt";

/** A discount the checkout applies: the code sent with the payment and the bundle's price after it (major units). */
export interface CheckoutDiscount {
  code: string;
  price: number;
}

/** What the checkout gives its discount slot (the route plugs in the discounts feature's code selector). */
export interface DiscountSlotProps {
  bundle: Bundle;
  /** The chosen payment method (a code may be limited to some), or null when none is offered. */
  method: PaymentMethod | null;
  /** The discount to apply (null: none), and whether a code is still being checked (paying waits). */
  onChange(discount: CheckoutDiscount | null, checking: boolean): void;
}

export interface CheckoutProps {
  bundleId: number;
  /** The URL's `{paymentmethod?}`: pre-selected when it is one of the offered methods. */
  methodParam?: string | undefined;
  /** Leaves the site for the provider's checkout page (replaceable in tests). */
  goTo?: (url: string) => void;
  newClientId?: () => string;
  /** The page to go back to after paying (`?return=`, a chat), kept on the way back to the package choice. */
  returnParam?: string | null | undefined;
  /** Renders the discount code selector (issue #12); without it, the bundle's own price is paid. */
  discountSlot?: ((slot: DiscountSlotProps) => ReactNode) | undefined;
  /** The bundles the page was rendered with on the server (issue #29): shown at once, nothing to wait for. */
  initialBundles?: BundlesResponse | null | undefined;
  /**
   * The discount the page was rendered with (issue #29): the pre-selected code that applies to the first
   * screen's bundle and method, so that its price is the one the discount slot will settle on.
   */
  initialDiscount?: CheckoutDiscount | null | undefined;
}

const leaveForCheckout = (url: string) => window.location.assign(url);

/** /credits/{id}/{paymentmethod?} (spec §2): the chosen bundle, the payment method and "Pay". */
export function Checkout({ initialBundles = null, ...props }: CheckoutProps) {
  return <WithBundles initial={initialBundles}>{(data) => <CheckoutForm data={data} {...props} />}</WithBundles>;
}

/** The chosen bundle, or a message and the way back to the choice when it is not offered (any more). */
function CheckoutForm({ data, bundleId, ...rest }: CheckoutProps & { data: BundlesResponse }) {
  const bundle = data.bundles.find((candidate) => candidate.id === bundleId);
  if (!bundle) return <NotOffered messageId="error.bundle_unavailable" to={`/credits${returnQuery(rest.returnParam)}`} />;
  return <PayForm bundle={bundle} methods={data.methods} {...rest} />;
}

function PayForm({
  bundle,
  methods,
  methodParam,
  goTo = leaveForCheckout,
  newClientId,
  discountSlot,
  returnParam,
  initialDiscount = null,
}: Omit<CheckoutProps, "bundleId" | "initialBundles"> & { bundle: Bundle; methods: readonly PaymentMethod[] }) {
  const price = usePrice();
  const navigate = useNavigate();
  const offered = useOfferedMethods(methods);
  const [picked, setPicked] = useState<PaymentMethod | null>(methodFromUrl(methodParam));
  // The URL's method when offered here, else the first one the server lists.
  const method = chosenMethod(picked, offered);
  const { busy, error, formRef, run } = usePaymentAttempt(newClientId);
  const [{ discount, checking }, setDiscountState] = useState<{ discount: CheckoutDiscount | null; checking: boolean }>({
    discount: initialDiscount,
    checking: false,
  });
  const onDiscountChange = useCallback((next: CheckoutDiscount | null, nextChecking: boolean) => {
    setDiscountState((current) =>
      current.checking === nextChecking && current.discount?.code === next?.code && current.discount?.price === next?.price
        ? current
        : { discount: next, checking: nextChecking },
    );
  }, []);

  const pay = (event: FormEvent) => {
    event.preventDefault();
    if (!method) return;
    if (FORM_METHODS.includes(method)) {
      // Direct debit is the site's own form (IBAN, phone, one-time code), not a provider page.
      void navigate(`/directdebit?bundle=${bundle.id}`);
      return;
    }
    // Another code is another purchase attempt (the server applies the code when it creates the payment).
    const code = discount?.code;
    void run(`${bundle.id}:${method}:${code ?? ""}`, async (clientId) => {
      const answer = await createPayment({
        bundle_id: bundle.id,
        method,
        ...(code ? { discount_code: code } : {}),
        client_id: clientId,
      });
      // The page stays busy: the browser is on its way to the provider or the result page.
      const checkout = safeCheckoutUrl(answer.checkout_url);
      if (checkout) goTo(checkout);
      else void navigate(`/transactions/${answer.payment_id}`);
    });
  };

  // The price shown before paying is the one the provider will charge: after the discount (issue #12).
  const amount = price(discount?.price ?? bundle.price, bundle.currency);
  return (
    <form ref={formRef} onSubmit={pay} noValidate>
      <section className="card shadow-sm mb-4" aria-labelledby="checkout-bundle-heading">
        <div className="card-body d-flex flex-wrap justify-content-between align-items-center gap-2">
          <div>
            <h2 id="checkout-bundle-heading" className="h6 text-body-secondary mb-1">
              <FormattedMessage id="payments.your_package" />
            </h2>
            <p className="h4 mb-0">
              <FormattedMessage id="payments.credits_count" values={{ credits: bundle.credits }} />
              {" · "}
              {discount && discount.price !== bundle.price ? (
                <DiscountedPrice price={discount.price} original={bundle.price} currency={bundle.currency} />
              ) : (
                amount
              )}
              {bundle.best_value ? (
                <span className="badge text-bg-success rounded-pill ms-2 fs-6 align-middle">
                  <FormattedMessage id="payments.best_value" />
                </span>
              ) : null}
            </p>
          </div>
          <Link to={`/credits${returnQuery(returnParam)}`}>
            <FormattedMessage id="payments.change_package" />
          </Link>
        </div>
      </section>
      <FormAlert>{error}</FormAlert>
      {offered.length > 0 ? (
        <fieldset className="mb-4">
          <legend className="h5">
            <FormattedMessage id="payments.method_legend" />
          </legend>
          <div className="list-group">
            {offered.map((candidate) => (
              <label key={candidate} className="list-group-item list-group-item-action d-flex align-items-center gap-3 py-2">
                <input
                  type="radio"
                  className="form-check-input flex-shrink-0 mt-0"
                  name="method"
                  value={candidate}
                  checked={method === candidate}
                  onChange={() => setPicked(candidate)}
                />
                <MethodLabel method={candidate} />
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        <p className="text-body-secondary">
          <FormattedMessage id="payments.no_methods" />
        </p>
      )}
      {discountSlot ? discountSlot({ bundle, method, onChange: onDiscountChange }) : null}
      <BusyButton type="submit" size="lg" busy={busy} disabled={!method || checking}>
        <FormattedMessage id="payments.pay" values={{ price: amount }} />
      </BusyButton>
    </form>
  );
}
