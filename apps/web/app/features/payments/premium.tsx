import { LIMITS } from "@app/contract";
import type { ReactNode } from "react";
import { FormattedMessage } from "react-intl";
import { Link } from "react-router";
import { useMember } from "../../lib/member";
import { usePurchasesAvailable } from "../../lib/purchases";
import { PurchasesUnavailableNote } from "../../ui/purchases-unavailable";
import { BundleCards, WithBundles } from "./bundles";
import { useReturnPath } from "./credits-choice";

/**
 * /premium (spec §2, §6): what premium gives (every photo, 25 own photos instead of 3, unlimited
 * conversations instead of 2, spec §1's "46% better chance of matches") and the bundles, any of which
 * makes the member premium for life. A premium member is told so and offered more credits.
 * `discountPercentage`: the discount shown to the member (the route passes it), for the prices.
 */
export function Premium({
  returnParam,
  discountPercentage = null,
}: {
  returnParam: string | null;
  discountPercentage?: number | null;
}) {
  useReturnPath(returnParam);
  const { user } = useMember();
  const premium = user?.paid_user === true;
  const purchasesAvailable = usePurchasesAvailable();
  return (
    <>
      {premium ? (
        <div className="alert alert-success">
          <p className="h5">
            <FormattedMessage id="payments.premium_already" />
          </p>
          {/* Decision 030: more credits only where the site takes purchases. */}
          {purchasesAvailable ? (
            <Link to="/credits" className="btn btn-primary">
              <FormattedMessage id="payments.buy_credits" />
            </Link>
          ) : (
            <PurchasesUnavailableNote />
          )}
        </div>
      ) : (
        <p className="lead">
          <FormattedMessage id="payments.premium_intro" />
        </p>
      )}
      <section className="mb-5" aria-labelledby="premium-benefits">
        <h2 id="premium-benefits" className="h4 mb-3">
          <FormattedMessage id="payments.premium_benefits" />
        </h2>
        <ul className="list-group">
          <Benefit>
            <FormattedMessage id="payments.premium_photos" />
          </Benefit>
          <Benefit>
            <FormattedMessage
              id="payments.premium_own_photos"
              values={{ premium: LIMITS.premiumPhotos, free: LIMITS.freePhotos }}
            />
          </Benefit>
          <Benefit>
            <FormattedMessage id="payments.premium_conversations" values={{ free: LIMITS.freeConversations }} />
          </Benefit>
          <Benefit>
            <FormattedMessage id="payments.premium_matches" />
          </Benefit>
        </ul>
      </section>
      {premium ? null : (
        <section aria-labelledby="premium-bundles">
          <h2 id="premium-bundles" className="h4 mb-3">
            <FormattedMessage id="payments.premium_pick" />
          </h2>
          <WithBundles>
            {(data) => (
              <BundleCards
                bundles={data.bundles}
                discountPercentage={discountPercentage}
                action={(bundle) => (
                  <Link to={`/credits/${bundle.id}`} className="btn btn-primary w-100">
                    <FormattedMessage id="payments.buy_bundle" values={{ credits: bundle.credits }} />
                  </Link>
                )}
              />
            )}
          </WithBundles>
        </section>
      )}
    </>
  );
}

function Benefit({ children }: { children: ReactNode }) {
  return (
    <li className="list-group-item d-flex gap-2 align-items-start">
      <span aria-hidden="true" className="text-success fw-bold">
        ✓
      </span>
      <span>{children}</span>
    </li>
  );
}
