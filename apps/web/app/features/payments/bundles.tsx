import { type Bundle, type BundlesResponse, discountedCents, type Payment } from "@app/contract";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Badge } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { errorMessage } from "../../lib/form-errors";
import { LoadFailed, Loading } from "../../ui/load-state";
import { bundlesQuery } from "./api";

/** Formats an amount in its currency in the page's language (19.99 EUR → "€ 19,99" in Dutch). */
export function usePrice(): (amount: number, currency: string) => string {
  const intl = useIntl();
  return (amount, currency) => intl.formatNumber(amount, { style: "currency", currency });
}

/**
 * A bundle's price after `percentage` off, in major units, computed as the server computes what the
 * provider charges (contract `discountedCents`).
 */
export function discountedPrice(price: number, percentage: number): number {
  return discountedCents(Math.round(price * 100), percentage) / 100;
}

/**
 * A price after a discount: the new one, with the one before it struck through (a screen reader
 * hears "€14.99, instead of €19.99").
 */
export function DiscountedPrice({ price, original, currency }: { price: number; original: number; currency: string }) {
  const format = usePrice();
  return (
    <>
      <span>{format(price, currency)}</span>
      <span className="visually-hidden">
        {", "}
        <FormattedMessage id="discounts.instead_of" values={{ price: format(original, currency) }} />
      </span>{" "}
      <del className="text-body-secondary fw-normal small" aria-hidden="true">
        {format(original, currency)}
      </del>
    </>
  );
}

/**
 * What a payment cost: its amount, and when a discount was applied, the amount before it struck
 * through and the code with its percentage (issue #12).
 */
export function PaidAmount({ payment }: { payment: Pick<Payment, "amount" | "currency" | "discount"> }) {
  const format = usePrice();
  const { discount } = payment;
  if (!discount) return <>{format(payment.amount, payment.currency)}</>;
  return (
    <>
      <DiscountedPrice price={payment.amount} original={discount.original_amount} currency={payment.currency} />{" "}
      <span className="badge text-bg-success rounded-pill ms-1 fw-normal">
        <FormattedMessage id="discounts.option" values={{ code: discount.code, percentage: discount.value_percentage }} />
      </span>
    </>
  );
}

/**
 * The bundles call with its loading and failure states; `children` renders the answer. A page that sells
 * (`purchase`, the default) says instead that purchases are unavailable when the site has no payment
 * provider (decision 030), rather than offering a checkout that fails.
 */
export function WithBundles({
  children,
  purchase = true,
  initial = null,
}: {
  children: (data: BundlesResponse) => ReactNode;
  purchase?: boolean;
  /** The answer the page was rendered with on the server (issue #29): shown at once, nothing to wait for. */
  initial?: BundlesResponse | null;
}) {
  const bundles = useQuery(initial ? { ...bundlesQuery, initialData: initial, staleTime: 30_000 } : bundlesQuery);
  return (
    <QueryState query={bundles}>
      {(data) => (purchase && !data.purchases_available ? <PurchasesUnavailable /> : children(data))}
    </QueryState>
  );
}

function PurchasesUnavailable() {
  return (
    <p className="alert alert-warning" role="status">
      <FormattedMessage id="payments.unavailable" />
    </p>
  );
}

/** A query's data, else its failure (message and "Try again"), else its pending state ("Loading…"). */
export function QueryState<T>({
  query,
  loading = "payments.loading",
  children,
}: {
  query: UseQueryResult<T>;
  loading?: string;
  children: (data: T) => ReactNode;
}) {
  const intl = useIntl();
  // Data loaded once stays on screen when a later refetch (polling) fails.
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) {
    return (
      <LoadFailed
        message={errorMessage(query.error, intl)}
        retry={<FormattedMessage id="payments.retry" />}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return (
    <Loading>
      <FormattedMessage id={loading} />
    </Loading>
  );
}

function NoBundles() {
  return (
    <p className="text-body-secondary">
      <FormattedMessage id="payments.no_bundles" />
    </p>
  );
}

/** A bundle or method the page names is not offered (any more): the message and the way back (`to`, `linkId`). */
export function NotOffered({
  messageId,
  to,
  linkId = "payments.choose_package",
}: {
  messageId: string;
  to: string;
  linkId?: string;
}) {
  return (
    <div className="alert alert-warning" role="alert">
      <p>
        <FormattedMessage id={messageId} />
      </p>
      <Link to={to} className="btn btn-primary">
        <FormattedMessage id={linkId} />
      </Link>
    </div>
  );
}

function BestValue() {
  return (
    <Badge bg="success" pill>
      <FormattedMessage id="payments.best_value" />
    </Badge>
  );
}

/**
 * What a bundle is: its credits, its price, the price per credit and the best-value mark. With a
 * discount shown to the member (the time bonus or the welcome discount, spec §4), the price after it
 * and the one before struck through.
 */
function BundleFacts({
  bundle,
  headingLevel = "h3",
  discountPercentage = null,
}: {
  bundle: Bundle;
  headingLevel?: "h2" | "h3" | "span";
  discountPercentage?: number | null;
}) {
  const price = usePrice();
  const Heading = headingLevel;
  const pays = discountPercentage ? discountedPrice(bundle.price, discountPercentage) : bundle.price;
  return (
    <>
      <span className="d-flex justify-content-between align-items-start gap-2">
        <Heading className="h5 mb-1 d-block">
          <FormattedMessage id="payments.credits_count" values={{ credits: bundle.credits }} />
        </Heading>
        {bundle.best_value ? <BestValue /> : null}
      </span>
      <span className="d-block fs-4 fw-semibold">
        {pays !== bundle.price ? (
          <DiscountedPrice price={pays} original={bundle.price} currency={bundle.currency} />
        ) : (
          price(bundle.price, bundle.currency)
        )}
      </span>
      <span className="d-block small text-body-secondary">
        <FormattedMessage id="payments.price_per_credit" values={{ price: price(pays / bundle.credits, bundle.currency) }} />
      </span>
    </>
  );
}

/** The bundles as cards (pricing, premium), each with its own action (`action(bundle)`), and a discount shown. */
export function BundleCards({
  bundles,
  action,
  discountPercentage = null,
}: {
  bundles: readonly Bundle[];
  action?: (bundle: Bundle) => ReactNode;
  discountPercentage?: number | null;
}) {
  if (bundles.length === 0) return <NoBundles />;
  return (
    <ul className="row row-cols-1 row-cols-sm-2 row-cols-lg-4 g-3 list-unstyled mb-0">
      {bundles.map((bundle) => (
        <li key={bundle.id} className="col">
          <div className={`card h-100 shadow-sm${bundle.best_value ? " border-success border-2" : ""}`}>
            <div className="card-body d-flex flex-column gap-1">
              <BundleFacts bundle={bundle} discountPercentage={discountPercentage} />
              {action ? <div className="mt-auto pt-2">{action(bundle)}</div> : null}
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * The credit package choice (spec §2) as radio cards: a fieldset of native radios styled as
 * buttons, so that arrow keys move between them and screen readers say which one is chosen.
 */
export function BundleChoice({
  bundles,
  value,
  onChange,
  discountPercentage = null,
}: {
  bundles: readonly Bundle[];
  value: number | null;
  onChange: (id: number) => void;
  discountPercentage?: number | null;
}) {
  if (bundles.length === 0) return <NoBundles />;
  return (
    <fieldset className="mb-3">
      <legend className="h5">
        <FormattedMessage id="payments.choose_bundle" />
      </legend>
      <div className="row row-cols-1 row-cols-sm-2 g-3">
        {bundles.map((bundle) => {
          const id = `bundle-${bundle.id}`;
          return (
            <div key={bundle.id} className="col">
              <input
                type="radio"
                className="btn-check"
                name="bundle"
                id={id}
                value={bundle.id}
                checked={value === bundle.id}
                onChange={() => onChange(bundle.id)}
              />
              <label htmlFor={id} className="btn btn-outline-primary w-100 h-100 text-start p-3">
                <BundleFacts bundle={bundle} headingLevel="span" discountPercentage={discountPercentage} />
              </label>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The bundle the member would pick without choosing: the best value, else the first. */
export function defaultBundleId(bundles: readonly Bundle[]): number | null {
  return (bundles.find((bundle) => bundle.best_value) ?? bundles[0])?.id ?? null;
}
