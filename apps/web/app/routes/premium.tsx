import { Navigate, useSearchParams } from "react-router";
import { PaymentPage } from "../features/payments/payment-page";
import { Premium } from "../features/payments/premium";
import { useMember } from "../lib/member";
import { requireMember } from "../lib/require-member";
import type { Route } from "./+types/premium";

/** /premium (spec §2, part of the members area): what premium gives and the bundles. Members only. */
export async function loader({ context }: Route.LoaderArgs) {
  await requireMember(context);
  return null;
}

export default function PremiumRoute() {
  const { user } = useMember();
  const [search] = useSearchParams();
  if (!user) return <Navigate to="/login" replace />;
  return (
    <PaymentPage titleId="payments.title_premium" wide>
      <Premium returnParam={search.get("return")} />
    </PaymentPage>
  );
}
