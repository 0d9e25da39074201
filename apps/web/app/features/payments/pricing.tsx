import type { BundlesResponse } from "@app/contract";
import { FormattedMessage } from "react-intl";
import { Link } from "react-router";
import { PurchasesUnavailableNote } from "../../ui/purchases-unavailable";
import { BundleCards, WithBundles } from "./bundles";
import { MethodLabel, useOfferedMethods } from "./methods";

/**
 * /pricing (spec §2, footer link; visitors too): the credit bundles in the visitor's currency, what a
 * message, a photo and a gift cost, the payment methods offered, the free-returns days (spec §1), and
 * the way on: buying credits for members, signing up for visitors. On a site that takes no purchases
 * the prices stay, without buy buttons, with the note that purchases are unavailable (decision 030).
 */
export function Pricing({ member }: { member: boolean }) {
  // The prices inform even where nothing can be bought right now (decision 030).
  return <WithBundles purchase={false}>{(data) => <PricingDetails data={data} member={member} />}</WithBundles>;
}

function PricingDetails({ data, member }: { data: BundlesResponse; member: boolean }) {
  const methods = useOfferedMethods(data.methods);
  const buying = member && data.purchases_available;
  const costs = [
    { id: "payments.cost_message", credits: data.costs.message },
    { id: "payments.cost_photo", credits: data.costs.photo },
    { id: "payments.cost_gift", credits: data.costs.gift },
  ];
  return (
    <>
      <section className="mb-5" aria-labelledby="pricing-bundles">
        <h2 id="pricing-bundles" className="h4 mb-3">
          <FormattedMessage id="payments.bundles_heading" />
        </h2>
        <BundleCards
          bundles={data.bundles}
          action={
            buying
              ? (bundle) => (
                  <Link to={`/credits/${bundle.id}`} className="btn btn-primary w-100">
                    <FormattedMessage id="payments.buy_bundle" values={{ credits: bundle.credits }} />
                  </Link>
                )
              : undefined
          }
        />
        <p className="mt-3 mb-0">
          <FormattedMessage id="payments.premium_note" />{" "}
          <strong>
            <FormattedMessage id="payments.refund_days" values={{ refund_days: data.refund_days }} />
          </strong>
        </p>
      </section>
      <div className="row g-4 mb-5">
        <section className="col-md-6" aria-labelledby="pricing-costs">
          <h2 id="pricing-costs" className="h4 mb-3">
            <FormattedMessage id="payments.costs_heading" />
          </h2>
          <ul className="list-group">
            {costs.map((cost) => (
              <li key={cost.id} className="list-group-item d-flex justify-content-between">
                <FormattedMessage id={cost.id} />
                <strong>
                  <FormattedMessage id="payments.credits_count" values={{ credits: cost.credits }} />
                </strong>
              </li>
            ))}
          </ul>
        </section>
        <section className="col-md-6" aria-labelledby="pricing-methods">
          <h2 id="pricing-methods" className="h4 mb-3">
            <FormattedMessage id="payments.methods_heading" />
          </h2>
          <ul className="list-unstyled d-flex flex-wrap gap-3 mb-0">
            {methods.map((method) => (
              <li key={method}>
                <MethodLabel method={method} />
              </li>
            ))}
          </ul>
        </section>
      </div>
      {data.purchases_available ? null : <PurchasesUnavailableNote className="alert alert-warning" />}
      {member ? (
        buying ? (
          <Link to="/credits" className="btn btn-primary btn-lg">
            <FormattedMessage id="payments.buy_credits" />
          </Link>
        ) : null
      ) : (
        <Link to="/signup" className="btn btn-primary btn-lg">
          <FormattedMessage id="payments.signup_cta" />
        </Link>
      )}
    </>
  );
}
