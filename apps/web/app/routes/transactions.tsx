import { parseIdParam } from "@app/contract";
import { data, Navigate } from "react-router";
import { PaymentPage } from "../features/payments/payment-page";
import { TransactionResult } from "../features/payments/transaction-result";
import { TransactionsList } from "../features/payments/transactions-list";
import { useMember } from "../lib/member";
import { pageMiddleware } from "../lib/page-middleware";
import type { Route } from "./+types/transactions";

export const middleware = pageMiddleware("member");

/**
 * /transactions (the member's orders) and /transactions/{id} (the result page the provider returns
 * the browser to; spec §2, §4). An id that is not one is a 404. Members only.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const id = params.id === undefined ? null : parseIdParam(params.id);
  if (params.id !== undefined && id === null) throw data(null, { status: 404 });
  return { id };
}

export default function TransactionsRoute({ loaderData }: Route.ComponentProps) {
  const { user } = useMember();
  const { id } = loaderData;
  if (!user) return <Navigate to="/login" replace />;
  if (id === null) {
    return (
      <PaymentPage titleId="payments.title_transactions" wide>
        <TransactionsList />
      </PaymentPage>
    );
  }
  return (
    <PaymentPage titleId="payments.order_number" values={{ id }}>
      <TransactionResult key={id} id={id} />
    </PaymentPage>
  );
}
