import { type CheckoutDiscounts, parseIdParam } from "@app/contract";
import { data, Navigate, useSearchParams } from "react-router";
import { DiscountCodeSelector } from "../features/discounts/discount-code-selector";
import { Checkout, type CheckoutDiscount, type DiscountSlotProps } from "../features/payments/checkout";
import { useReturnPath } from "../features/payments/credits-choice";
import { chosenMethod, methodFromUrl, offeredMethods } from "../features/payments/methods";
import { PaymentPage } from "../features/payments/payment-page";
import { useMember } from "../lib/member";
import { pageMiddleware } from "../lib/page-middleware";
import type { RouteHandle } from "../lib/route-handle";
import { servicesContext } from "../server-context";
import type { Route } from "./+types/credits-checkout";

export const middleware = pageMiddleware("member");

/**
 * /credits/{id}/{paymentmethod?} (spec §2): the chosen bundle, the payment method (pre-selected from
 * the URL when offered), the discount code selector (issue #12) and "Pay". An id that is not one is a
 * 404; an unknown bundle says so on the page. `?return=` (from /credits, issue #29) is remembered for the
 * result page as /credits does, and kept on the link back to the package choice.
 *
 * The first screen comes rendered from the server (issue #29: no spinner after the page loaded): the
 * bundle, the methods, and the price after the discount the selector starts with. What the server
 * cannot give, the page loads itself as before.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const id = parseIdParam(params.id);
  if (id === null) throw data(null, { status: 404 });
  const services = context.get(servicesContext);
  const method = params.paymentmethod ?? null;
  const bundles = await services.bundles().catch(() => null);
  // The method the first screen pays with (the browser offers Apple Pay only after hydration).
  const first = bundles ? chosenMethod(methodFromUrl(method), offeredMethods(bundles.methods, false)) : null;
  const discounts = first ? await services.checkoutDiscounts(id, first).catch(() => null) : null;
  return { id, method, bundles, discounts };
}

/** Spec §2: the back button shows on credits-id-paymentmethod in installed-app display. */
export const handle: RouteHandle = { backButton: true };

/** The server's pre-selected code as the checkout applies it: the code and the price after it. */
function renderedDiscount(discounts: CheckoutDiscounts | null | undefined): CheckoutDiscount | null {
  const answer = discounts?.preselected?.answer;
  return answer?.discount && answer.price ? { code: answer.discount.code, price: answer.price.discounted } : null;
}

export default function CreditsCheckoutRoute({ loaderData }: Route.ComponentProps) {
  const { user } = useMember();
  const returnParam = useSearchParams()[0].get("return");
  useReturnPath(returnParam);
  if (!user) return <Navigate to="/login" replace />;
  const discounts = loaderData.discounts ?? null;
  const discountSlot = (slot: DiscountSlotProps) => <DiscountCodeSelector {...slot} initial={discounts} />;
  return (
    <PaymentPage titleId="payments.title_checkout">
      <Checkout
        key={loaderData.id}
        bundleId={loaderData.id}
        returnParam={returnParam}
        methodParam={loaderData.method ?? undefined}
        discountSlot={discountSlot}
        initialBundles={loaderData.bundles ?? null}
        initialDiscount={renderedDiscount(discounts)}
      />
    </PaymentPage>
  );
}
