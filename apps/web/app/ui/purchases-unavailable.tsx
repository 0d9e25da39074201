import { FormattedMessage } from "react-intl";
import { Link } from "react-router";
import { usePurchasesAvailable } from "../lib/purchases";

/** What a buy prompt says instead on a site that takes no purchases (decision 030). */
export function PurchasesUnavailableNote({ className = "mb-0 small text-body-secondary" }: { className?: string }) {
  return (
    <p className={className} data-purchases-unavailable="">
      <FormattedMessage id="payments.unavailable" />
    </p>
  );
}

/** Spec §6's way past the free conversation limit: Get Premium, or the note where nothing can be bought. */
export function GetPremiumAction() {
  return usePurchasesAvailable() ? (
    <Link to="/premium" className="btn btn-primary btn-sm">
      <FormattedMessage id="nav.get_premium" />
    </Link>
  ) : (
    <PurchasesUnavailableNote />
  );
}
