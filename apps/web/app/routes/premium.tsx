import { Navigate, useSearchParams } from "react-router";
import { DiscountNotice, WelcomeDiscountModal } from "../features/discounts/discount-notice";
import { useShownDiscount } from "../features/discounts/discount-provider";
import { PaymentPage } from "../features/payments/payment-page";
import { Premium } from "../features/payments/premium";
import { useMember } from "../lib/member";
import { pageMiddleware } from "../lib/page-middleware";

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

/**
 * /premium (spec §2, part of the members area): what premium gives and the bundles, with the discount
 * shown to the member (spec §4) announced and taken off the prices. Members only.
 */
// Nothing to load: the loader makes a client-side navigation ask the server, whose middleware guards the page.
export async function loader() {
  return null;
}

export default function PremiumRoute() {
  const { user } = useMember();
  const [search] = useSearchParams();
  const discount = useShownDiscount();
  if (!user) return <Navigate to="/login" replace />;
  return (
    <PaymentPage titleId="payments.title_premium" wide>
      {/* The time bonus has the members area's banner above; the welcome discount is said here. */}
      {discount?.kind === "welcome" ? <DiscountNotice /> : null}
      <Premium returnParam={search.get("return")} discountPercentage={discount?.value_percentage ?? null} />
      <WelcomeDiscountModal />
    </PaymentPage>
  );
}
