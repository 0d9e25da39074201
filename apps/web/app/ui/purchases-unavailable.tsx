import { FormattedMessage } from "react-intl";

/** What a buy prompt says instead on a site that takes no purchases (decision 030). */
export function PurchasesUnavailableNote({ className = "mb-0 small text-body-secondary" }: { className?: string }) {
  return (
    <p className={className} data-purchases-unavailable="">
      <FormattedMessage id="payments.unavailable" />
    </p>
  );
}
