import type { BundlesResponse, CheckoutDiscounts, Discount, Payment } from "@app/contract";

/** GET /api/bundles.php as a Dutch member sees it, for tests. */
export function bundlesAnswer(overrides: Partial<BundlesResponse> = {}): BundlesResponse {
  return {
    country: "NL",
    currency: "EUR",
    bundles: [
      { id: 1, credits: 100, price: 9.99, currency: "EUR", best_value: false },
      { id: 2, credits: 250, price: 19.99, currency: "EUR", best_value: true },
      { id: 3, credits: 600, price: 39.99, currency: "EUR", best_value: false },
    ],
    methods: ["ideal", "creditcard", "applepay", "paypal", "directdebit"],
    costs: { message: 10, photo: 15, gift: 20 },
    refund_days: 14,
    repeat_order: null,
    purchases_available: true,
    ...overrides,
  };
}

/** A payment as GET /api/payment.php answers it, for tests. */
export function paymentAnswer(overrides: Partial<Payment> = {}): Payment {
  return {
    payment_id: 12,
    status: "pending",
    credits: 250,
    amount: 19.99,
    currency: "EUR",
    method: "ideal",
    created: "2026-03-01T10:00:00.000Z",
    paid_at: null,
    refundable: false,
    checkout_url: null,
    bundle_id: 3,
    recurring: false,
    discount: null,
    ...overrides,
  };
}

// The generic API-answer helpers live in the shared test utilities, so that other features' tests can use
// them without importing this feature (issue #26); re-exported here for the payments tests.
export { apiError, bodiesOf } from "../../test-utils";

/**
 * The checkout route's props as its loader gives them for bundle 2 (€19.99) paid with iDEAL (issue #29):
 * the bundles, and the time bonus TIMEBONUS25 pre-selected and valid (€14.99).
 */
export function checkoutLoaderData<Props>(): Props {
  const discount = {
    code: "TIMEBONUS25",
    kind: "time_bonus",
    user_id: null,
    status: "active",
    expired: false,
    value_percentage: 25,
    expires: null,
    seconds_left: 14_400,
    country: null,
    currency: null,
    minimum_order_value: null,
    paymentmethods: null,
    validity: "once_per_member",
  } satisfies Discount;
  const discounts: CheckoutDiscounts = {
    shown: { kind: "time_bonus", code: "TIMEBONUS25", value_percentage: 25 },
    codes: [discount],
    preselected: {
      code: "TIMEBONUS25",
      bundle_id: 2,
      method: "ideal",
      answer: { discount, price: { original: 19.99, discounted: 14.99, currency: "EUR" } },
    },
  };
  return { loaderData: { id: 2, method: null, bundles: bundlesAnswer(), discounts } } as Props;
}
