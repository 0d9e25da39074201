import { parseIdParam } from "@app/contract";
import { Navigate } from "react-router";
import { DirectDebit } from "../features/payments/direct-debit";
import { PaymentPage } from "../features/payments/payment-page";
import { useMember } from "../lib/member";
import { pageMiddleware } from "../lib/page-middleware";
import type { Route } from "./+types/directdebit";

export const middleware = pageMiddleware("member");

/** /directdebit?bundle={id} (spec §2): the direct-debit form (account, phone, one-time code). Members only. */
export async function loader({ request }: Route.LoaderArgs) {
  return { bundleId: parseIdParam(new URL(request.url).searchParams.get("bundle") ?? undefined) };
}

export default function DirectDebitRoute({ loaderData }: Route.ComponentProps) {
  const { user } = useMember();
  if (!user) return <Navigate to="/login" replace />;
  return (
    <PaymentPage titleId="payments.title_direct_debit">
      <DirectDebit key={loaderData.bundleId} bundleId={loaderData.bundleId} />
    </PaymentPage>
  );
}
