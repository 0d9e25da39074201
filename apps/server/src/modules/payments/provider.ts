import type { PaymentMethod } from "@app/contract";

/**
 * A payment provider as the payments module sees it (decision 021): the embedded sandbox or Mollie.
 * The module never trusts a webhook body or the browser's return: it asks `getPayment` for the truth
 * and records what that answers. Amounts are whole cents.
 */
export interface PaymentProvider {
  /** The provider's name in the payments table and in the webhook path `/hooks/payments/<name>`. */
  readonly name: "sandbox" | "mollie";
  /**
   * Creates a payment at the provider. `sequence` "first" asks the provider to keep the card or
   * account as a mandate for later one-step payments (repeat orders); "recurring" charges such a
   * mandate without the member (then `mandateId` and `customerId` are set and no checkout is needed).
   */
  createPayment(input: CreatePaymentInput): Promise<ProviderPayment>;
  /** The payment's current state at the provider. */
  getPayment(providerId: string): Promise<ProviderPayment>;
  /** Refunds the whole amount of a paid payment (spec §1 "{refund_days} day free returns"). */
  refundPayment(providerId: string, amountCents: number, currency: string): Promise<void>;
  /** A customer at the provider for a member (needed for mandates). */
  createCustomer(input: { name: string; email: string; locale: string }): Promise<string>;
  /** A SEPA direct-debit mandate made from the site's own form (IBAN, name), for a customer. */
  createDirectDebitMandate(input: { customerId: string; name: string; iban: string }): Promise<{ mandateId: string }>;
}

export interface CreatePaymentInput {
  amountCents: number;
  currency: string;
  method: PaymentMethod;
  description: string;
  /** Where the browser returns after the checkout: `/transactions/{id}` on the site. */
  redirectUrl: string;
  /** Where the provider posts `id=<provider id>` whenever the payment changes. */
  webhookUrl: string;
  /** The checkout page's language, e.g. "nl_NL". */
  locale: string;
  /** The site's payment id, kept at the provider for support look-ups. */
  metadata: { payment_id: number; user_id: number };
  sequence: "oneoff" | "first" | "recurring";
  customerId?: string;
  mandateId?: string;
}

/** What a provider says about a payment. */
export interface ProviderPayment {
  id: string;
  status: ProviderStatus;
  /** The provider's checkout page while the payment is open; null when none (recurring, finished). */
  checkoutUrl: string | null;
  /** Money refunded and charged back so far, in cents (Mollie's amountRefunded / amountChargedBack). */
  refundedCents: number;
  chargedBackCents: number;
  /** After a paid "first" payment: the stored card or account to charge again. */
  mandateId: string | null;
  customerId: string | null;
  /** What the mandate is, for the member's page ("Visa •••• 4242", "NL•• •••• 4300"). */
  mandateLabel: string | null;
}

/** Mollie's payment statuses (the sandbox speaks the same). */
export type ProviderStatus = "open" | "pending" | "authorized" | "paid" | "failed" | "canceled" | "expired";

/** A provider that cannot be reached or refuses a call; the API answers payment_provider_failed. */
export class ProviderError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "ProviderError";
  }
}
