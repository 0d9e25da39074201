import { Navigate, useSearchParams } from "react-router";
import { CreditsChoice } from "../features/payments/credits-choice";
import { PaymentPage } from "../features/payments/payment-page";
import { useMember } from "../lib/member";
import { requireMember } from "../lib/require-member";
import type { RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/credits";

/**
 * /credits (spec §2): the credit package choice. `?return=` names the page to go back to after paying
 * (a chat whose credits ran out). Members only.
 */
export async function loader({ context }: Route.LoaderArgs) {
  await requireMember(context);
  return null;
}

/** Spec §2: the back button shows on credits in installed-app display. */
export const handle: RouteHandle = { backButton: true };

export default function CreditsRoute() {
  const { user } = useMember();
  const [search] = useSearchParams();
  if (!user) return <Navigate to="/login" replace />;
  return (
    <PaymentPage titleId="payments.title_credits">
      <CreditsChoice returnParam={search.get("return")} />
    </PaymentPage>
  );
}
