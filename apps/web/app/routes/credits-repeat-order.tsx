import { Navigate } from "react-router";
import { PaymentPage } from "../features/payments/payment-page";
import { RepeatOrder } from "../features/payments/repeat-order";
import { useMember } from "../lib/member";
import { pageMiddleware } from "../lib/page-middleware";
import type { Route } from "./+types/credits-repeat-order";

export const middleware = pageMiddleware("member");

/** /credits/repeat-order (spec §2): the last bundle again on the stored card or mandate. Members only. */
// A server loader, so that a client-side navigation asks the server, whose middleware checks the member.
export async function loader(_: Route.LoaderArgs) {
  return null;
}

export default function RepeatOrderRoute() {
  const { user } = useMember();
  if (!user) return <Navigate to="/login" replace />;
  return (
    <PaymentPage titleId="payments.title_repeat_order">
      <RepeatOrder />
    </PaymentPage>
  );
}
