import type { PaymentMethod } from "@app/contract";
import {
  createMollieClient,
  Locale,
  MandateMethod,
  MollieApiError,
  type MollieClient,
  type PaymentMethod as MollieMethod,
  type Payment as MolliePayment,
  SequenceType,
} from "@mollie/api-client";
import type { CreatePaymentInput, PaymentProvider, ProviderPayment, ProviderStatus } from "../provider.ts";
import { ProviderError } from "../provider.ts";

export interface MollieOptions {
  /** A Mollie API key (`live_…` or `test_…`). */
  apiKey: string;
  /** The API's root; Mollie's own (`https://api.mollie.com/v2/`) unless a stand-in is named (tests). */
  apiEndpoint?: string;
}

const STATUSES: ReadonlySet<string> = new Set<ProviderStatus>([
  "open",
  "pending",
  "authorized",
  "paid",
  "failed",
  "canceled",
  "expired",
]);

/**
 * Mollie as the payments module's provider (issue #11, decision 021), through the official client.
 * Our method ids are Mollie's, amounts cross the boundary as Mollie's `{ currency, value: "19.99" }`
 * strings, and every failure of the client (network, 4xx, 5xx after its own retries) becomes a
 * `ProviderError` whose message names the call and Mollie's reason but never the API key.
 */
export class MollieProvider implements PaymentProvider {
  readonly name = "mollie" as const;
  private readonly client: MollieClient;
  private readonly apiKey: string;

  constructor(options: MollieOptions) {
    this.apiKey = options.apiKey;
    this.client = createMollieClient({
      apiKey: options.apiKey,
      ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}),
    });
  }

  async createPayment(input: CreatePaymentInput): Promise<ProviderPayment> {
    const amount = { currency: input.currency, value: centsToValue(input.amountCents) };
    const recurring = input.sequence === "recurring";
    const payment = await this.call("create payment", () =>
      this.client.payments.create({
        amount,
        description: input.description,
        // A recurring charge has no browser to send back, and it is charged with the mandate's own
        // method: an iDEAL or Bancontact first payment leaves a directdebit mandate, so sending the
        // original method ("ideal") would be refused. Mollie takes the method from the mandate.
        redirectUrl: recurring ? undefined : input.redirectUrl,
        method: recurring ? undefined : mollieMethod(input.method),
        webhookUrl: input.webhookUrl,
        locale: mollieLocale(input.locale),
        metadata: input.metadata,
        sequenceType: SequenceType[input.sequence],
        customerId: input.sequence === "oneoff" ? undefined : input.customerId,
        mandateId: input.sequence === "oneoff" ? undefined : input.mandateId,
      }),
    );
    return present(payment);
  }

  async getPayment(providerId: string): Promise<ProviderPayment> {
    return present(await this.call("get payment", () => this.client.payments.get(providerId)));
  }

  async refundPayment(providerId: string, amountCents: number, currency: string): Promise<void> {
    const amount = { currency, value: centsToValue(amountCents) };
    await this.call("refund payment", () => this.client.paymentRefunds.create({ paymentId: providerId, amount }));
  }

  async createCustomer(input: { name: string; email: string; locale: string }): Promise<string> {
    const customer = await this.call("create customer", () =>
      this.client.customers.create({ name: input.name, email: input.email, locale: mollieLocale(input.locale) }),
    );
    return customer.id;
  }

  async createDirectDebitMandate(input: { customerId: string; name: string; iban: string }): Promise<{ mandateId: string }> {
    const mandate = await this.call("create mandate", () =>
      this.client.customerMandates.create({
        customerId: input.customerId,
        method: MandateMethod.directdebit,
        consumerName: input.name,
        // The form may keep the IBAN as typed ("NL91 ABNA 0417 1643 00"); Mollie wants it compact.
        consumerAccount: input.iban.replace(/\s+/g, "").toUpperCase(),
      }),
    );
    return { mandateId: mandate.id };
  }

  /** Runs one client call and turns whatever it throws into a ProviderError. */
  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.failure(what, error);
    }
  }

  private failure(what: string, error: unknown): ProviderError {
    if (error instanceof ProviderError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    let message = `Mollie ${what} failed`;
    if (error instanceof MollieApiError && error.statusCode) message += ` (${error.statusCode})`;
    message += `: ${reason}`;
    if (error instanceof MollieApiError && error.field) message += ` [field ${error.field}]`;
    // The client never puts the key in a message today; this keeps it so if that changes. The
    // original error is dropped too in that case, since it carries the same text.
    const leaks = this.apiKey.length > 0 && message.includes(this.apiKey);
    return new ProviderError(leaks ? message.replaceAll(this.apiKey, "[api key]") : message, leaks ? undefined : error);
  }
}

/** What the payments module needs of a Mollie payment. */
function present(payment: MolliePayment): ProviderPayment {
  if (!STATUSES.has(payment.status)) throw new ProviderError(`Mollie answered an unknown payment status: ${payment.status}`);
  return {
    id: payment.id,
    status: payment.status as ProviderStatus,
    checkoutUrl: payment._links.checkout?.href ?? null,
    refundedCents: payment.amountRefunded ? valueToCents(payment.amountRefunded.value) : 0,
    chargedBackCents: payment.amountChargedBack ? valueToCents(payment.amountChargedBack.value) : 0,
    mandateId: payment.mandateId ?? null,
    customerId: payment.customerId ?? null,
    mandateLabel: mandateLabel(payment.method ?? null, payment.details),
  };
}

/** Card and wallet methods whose details name a card (Apple Pay pays with one and leaves a card mandate). */
const CARD_METHODS: ReadonlySet<string> = new Set(["creditcard", "applepay"]);

/**
 * How the member's page names the card or account a payment used ("Visa •••• 4242", "NL•• •••• 4300",
 * a PayPal e-mail). Bank methods (iDEAL, Bancontact, EPS, ...) report the paying IBAN, which is what
 * a first payment's directdebit mandate charges later; null when Mollie gave no such detail.
 */
export function mandateLabel(method: string | null, details: unknown): string | null {
  if (typeof details !== "object" || details === null) return null;
  const detail = (key: string) => {
    const value = (details as Record<string, unknown>)[key];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
  };
  if (method !== null && CARD_METHODS.has(method)) {
    const number = detail("cardNumber");
    if (!number) return null;
    const brand = detail("cardLabel") ?? (method === "applepay" ? "Apple Pay" : null);
    const lastFour = `•••• ${number.slice(-4)}`;
    return brand ? `${brand} ${lastFour}` : lastFour;
  }
  const account = detail("consumerAccount");
  if (!account) return null;
  if (method === "paypal") return account;
  return maskAccount(account);
}

/** "NL91ABNA0417164300" → "NL•• •••• 4300"; an account number that is not an IBAN keeps only its last four. */
export function maskAccount(account: string): string {
  const compact = account.replace(/\s+/g, "").toUpperCase();
  const lastFour = compact.slice(-4);
  return /^[A-Z]{2}\d{2}/.test(compact) ? `${compact.slice(0, 2)}•• •••• ${lastFour}` : `•••• ${lastFour}`;
}

/**
 * Whole cents → Mollie's amount value: 1999 → "19.99", 5 → "0.05". Every currency we charge in (EUR,
 * CHF, PLN, GBP, USD, CAD, AUD, NZD) has two decimals; Mollie refuses a value with the wrong number
 * of decimals for its currency, so a zero-decimal currency added later fails loudly, not by 100×.
 * Built from the integer's digits, never by dividing a float.
 */
export function centsToValue(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new ProviderError(`Not an amount in whole cents: ${cents}`);
  const digits = String(cents).padStart(3, "0");
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Mollie's amount value → whole cents: "19.99" → 1999, "0.10" → 10. Read as text, so no binary fraction creeps in. */
export function valueToCents(value: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) throw new ProviderError(`Mollie answered an amount that is not a two-decimal value: ${JSON.stringify(value)}`);
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) throw new ProviderError(`Mollie answered an amount too large to count: ${value}`);
  return cents;
}

/**
 * Our method ids are Mollie's and go out as they are (a stale cast would show up as Mollie's 422, not
 * as a silently dropped method); the typed assignment stops the build if the contract gains one that
 * this client does not list.
 */
function mollieMethod(method: PaymentMethod): MollieMethod {
  const id: `${MollieMethod}` = method;
  return id as MollieMethod;
}

/**
 * Our checkout locale ("nl_NL") when Mollie knows it; otherwise none is sent and Mollie picks the
 * language from the browser, which beats refusing the payment over a language.
 */
function mollieLocale(locale: string): Locale | undefined {
  return Object.hasOwn(Locale, locale) ? Locale[locale as keyof typeof Locale] : undefined;
}
