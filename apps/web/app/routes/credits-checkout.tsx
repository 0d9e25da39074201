import { parseIdParam } from "@app/contract";
import { data, Navigate, useSearchParams } from "react-router";
import { DiscountCodeSelector } from "../features/discounts/discount-code-selector";
import { Checkout, type DiscountSlotProps } from "../features/payments/checkout";
import { useReturnPath } from "../features/payments/credits-choice";
import { PaymentPage } from "../features/payments/payment-page";
import { useMember } from "../lib/member";
import { requireMember } from "../lib/require-member";
import type { RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/credits-checkout";

/**
 * /credits/{id}/{paymentmethod?} (spec §2): the chosen bundle, the payment method (pre-selected from
 * the URL when offered), the discount code selector (issue #12) and "Pay". An id that is not one is a
 * 404; an unknown bundle says so on the page. `?return=` (from /credits, issue #29) is remembered for the
 * result page as /credits does, and kept on the link back to the package choice.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const id = parseIdParam(params.id);
  if (id === null) throw data(null, { status: 404 });
  await requireMember(context);
  return { id, method: params.paymentmethod ?? null };
}

/** Spec §2: the back button shows on credits-id-paymentmethod in installed-app display. */
export const handle: RouteHandle = { backButton: true };

const discountSlot = (slot: DiscountSlotProps) => <DiscountCodeSelector {...slot} />;

export default function CreditsCheckoutRoute({ loaderData }: Route.ComponentProps) {
  const { user } = useMember();
  const returnParam = useSearchParams()[0].get("return");
  useReturnPath(returnParam);
  if (!user) return <Navigate to="/login" replace />;
  return (
    <PaymentPage titleId="payments.title_checkout">
      <Checkout
        key={loaderData.id}
        bundleId={loaderData.id}
        returnParam={returnParam}
        methodParam={loaderData.method ?? undefined}
        discountSlot={discountSlot}
      />
    </PaymentPage>
  );
}
