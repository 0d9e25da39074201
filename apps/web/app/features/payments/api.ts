import { ENDPOINTS, type PaymentCreateRequest } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import { callEndpoint } from "../../lib/api";

/**
 * Query keys of the payments feature (decision 013). The bundles (with the repeat order) and the
 * history change when a payment is paid or returned; the result page's payment is polled while open.
 */
export const BUNDLES_KEY = ["bundles"] as const;
export const PAYMENT_KEY = ["payment"] as const;
export const TRANSACTIONS_KEY = ["transactions"] as const;

/** GET /api/bundles.php: the bundles and methods of the member's payment country, the costs, the refund days. */
export const bundlesQuery = queryOptions({ queryKey: BUNDLES_KEY, queryFn: () => callEndpoint(ENDPOINTS.bundles) });

/** GET /api/payment.php?id=: one of the member's payments (the result page). */
export const paymentQuery = (id: number) =>
  queryOptions({
    queryKey: [...PAYMENT_KEY, id],
    queryFn: () => callEndpoint(ENDPOINTS.payment, { query: { id } }),
    gcTime: 0,
  });

/** GET /api/transactions.php: the member's payments, loaded afresh on each visit. */
export const transactionsQuery = queryOptions({
  queryKey: TRANSACTIONS_KEY,
  queryFn: () => callEndpoint(ENDPOINTS.transactions),
  gcTime: 0,
});

/**
 * POST /api/payment.php. The client_id makes a repeated request answer the same payment, so the same
 * attempt may be sent again after a failure without paying twice.
 */
export function createPayment(body: PaymentCreateRequest) {
  return callEndpoint(ENDPOINTS.createPayment, { body });
}

/** POST /api/payment-retry.php: "Try again" on a failed order, as a new payment of its bundle, method and code. */
export function retryPayment(paymentId: number, clientId: string) {
  return callEndpoint(ENDPOINTS.retryPayment, { body: { payment_id: paymentId, client_id: clientId } });
}

/** POST /api/repeat-order.php: the last bundle again, on the stored card or mandate. */
export function repeatOrder(clientId: string) {
  return callEndpoint(ENDPOINTS.repeatOrder, { body: { client_id: clientId } });
}

/** POST /api/refund.php: return a paid order (spec §1 "{refund_days} day free returns"); answers the payment. */
export function refundPayment(paymentId: number) {
  return callEndpoint(ENDPOINTS.refund, { body: { payment_id: paymentId } });
}

/** POST /api/directdebit.php: step 1 of the direct-debit form; a code goes to the phone. */
export function startDirectDebit(body: { bundle_id: number; name: string; iban: string; phone: string }) {
  return callEndpoint(ENDPOINTS.directDebitStart, { body });
}

/** POST /api/directdebit-confirm.php: step 2, the code from the text message; answers the payment. */
export function confirmDirectDebit(body: { verification_id: string; code: string; client_id: string }) {
  return callEndpoint(ENDPOINTS.directDebitConfirm, { body });
}
