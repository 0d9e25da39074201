import { PaymentPage } from "../features/payments/payment-page";
import { Pricing } from "../features/payments/pricing";
import { useMember } from "../lib/member";

/** /pricing (spec §2; footer link): bundles, costs and payment methods, for visitors and members. */
export default function PricingRoute() {
  const { user } = useMember();
  return (
    <PaymentPage titleId="payments.title_pricing" wide>
      <Pricing member={user !== null} />
    </PaymentPage>
  );
}
