import { Navigate, useSearchParams } from "react-router";
import { DiscountNotice, WelcomeDiscountModal } from "../features/discounts/discount-notice";
import { useShownDiscount } from "../features/discounts/discount-provider";
import { CreditsChoice } from "../features/payments/credits-choice";
import { PaymentPage } from "../features/payments/payment-page";
import { useMember } from "../lib/member";
import { pageMiddleware } from "../lib/page-middleware";
import type { RouteHandle } from "../lib/route-handle";
import { servicesContext } from "../server-context";
import type { Route } from "./+types/credits";

/** Spec §2 redirects: members only (a visitor is sent to the login). */
export const middleware = pageMiddleware("member");

/**
 * /credits (spec §2): the credit package choice. `?return=` names the page to go back to after paying
 * (a chat whose credits ran out). Members only. The discount shown to the member (time bonus or
 * welcome discount, spec §4) is announced above the choice and taken off the prices.
 */
export async function loader({ context }: Route.LoaderArgs) {
  // The packages come with the page (issue #29: no spinner after it loaded); if they cannot, the page
  // loads them itself as before.
  const bundles = await context
    .get(servicesContext)
    .bundles()
    .catch(() => null);
  return { bundles };
}

/** Spec §2: the back button shows on credits in installed-app display. */
export const handle: RouteHandle = { backButton: true };

export default function CreditsRoute({ loaderData }: Route.ComponentProps) {
  const { user } = useMember();
  const [search] = useSearchParams();
  const discount = useShownDiscount();
  if (!user) return <Navigate to="/login" replace />;
  return (
    <PaymentPage titleId="payments.title_credits">
      <DiscountNotice />
      <CreditsChoice
        returnParam={search.get("return")}
        discountPercentage={discount?.value_percentage ?? null}
        initialBundles={loaderData?.bundles ?? null}
      />
      <WelcomeDiscountModal />
    </PaymentPage>
  );
}
