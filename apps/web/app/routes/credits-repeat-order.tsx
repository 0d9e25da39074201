import { Navigate } from "react-router";
import { PaymentPage } from "../features/payments/payment-page";
import { RepeatOrder } from "../features/payments/repeat-order";
import { useMember } from "../lib/member";
import { requireMember } from "../lib/require-member";
import type { Route } from "./+types/credits-repeat-order";

/** /credits/repeat-order (spec §2): the last bundle again on the stored card or mandate. Members only. */
export async function loader({ context }: Route.LoaderArgs) {
  await requireMember(context);
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
