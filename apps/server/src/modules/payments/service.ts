import type {
  BundleCreate,
  BundlesResponse,
  LocaleCode,
  MemberContext,
  Payment,
  PaymentCreateResponse,
  PaymentMethod,
  PaymentStatus,
  StaffBundle,
} from "@app/contract";
import { FAILED_PAYMENT_STATUSES, FORM_METHODS, OPEN_PAYMENT_STATUSES } from "@app/contract";
import type { ExportPart, ExportSubject } from "../../platform/data-export.ts";
import type { Db, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { JobRef, JobRunner } from "../../platform/jobs.ts";
import type { MemberEvents, PendingDelivery } from "../../platform/member-events.ts";
import type { CreditService } from "../credits/index.ts";
import { createBundle, listBundles, retire } from "./bundles-admin.ts";
import { paymentsExport } from "./export.ts";
import { methodsFor } from "./methods.ts";
import type { PaymentProvider, ProviderPayment } from "./provider.ts";
import { ProviderError } from "./provider.ts";
import {
  activeMandate,
  type BundleOffer,
  bundleIn,
  bundlesIn,
  currencySold,
  customerOf,
  deletePayment,
  findMemberPayment,
  findMemberPaymentByClientId,
  findPayment,
  findPaymentByProviderId,
  flagMember,
  insertMandate,
  insertPayment,
  keepCustomer,
  lastPaidPayment,
  lockPaymentByProviderId,
  type PaymentRow,
  paymentsOf,
  revokeMandate,
  staleOpenPayments,
  updatePayment,
} from "./queries.ts";

/** Methods whose payment can leave a stored card or mandate for repeat orders (Mollie's "first" payments). */
const FIRST_PAYMENT_METHODS: ReadonlySet<PaymentMethod> = new Set([
  "creditcard",
  "applepay",
  "paypal",
  "ideal",
  "bancontact",
  "kbc",
  "belfius",
  "eps",
]);
/** How long a member's history goes back on `/transactions`. */
const HISTORY_LIMIT = 100;
/** An open payment not heard of for this long is asked about (a lost webhook, a provider without one). */
export const RECONCILE_AFTER_MS = 30_000;
/** How long a duplicate create waits for the first one to reach the provider. */
const DUPLICATE_WAIT_MS = 10_000;

/** Where a purchase happens: the payment country and currency, the site's origin and the member's language. */
export interface PurchaseContext {
  country: string;
  currency: string;
  /** The site's origin for the provider's redirect and webhook (SiteService.originFor: never the request's Host). */
  origin: string;
  locale: LocaleCode;
  /** The site's name, in the payment's description on the member's bank statement. */
  siteName: string;
}

/**
 * Discount codes as payments uses them (the discounts module's service, wired by the app): checked and
 * applied when a payment is made, reserved in its transaction, redeemed or released with its outcome.
 */
export interface PaymentDiscounts {
  apply(
    member: MemberContext,
    code: string,
    order: { country: string; currency: string; amountCents: number; method: PaymentMethod },
  ): Promise<{ codeId: number; code: string; valuePercentage: number; scopeKey: string | null }>;
  discounted(amountCents: number, discount: { valuePercentage: number }): number;
  reserve(tx: Tx, discount: { codeId: number; scopeKey: string | null }, userId: number, paymentId: number): Promise<void>;
  redeem(tx: Tx, paymentId: number): Promise<void>;
  release(tx: Tx, paymentId: number): Promise<void>;
}

type AppliedDiscount = Awaited<ReturnType<PaymentDiscounts["apply"]>>;

export interface PaymentsDeps {
  db: Db;
  credits: CreditService;
  events: MemberEvents;
  jobs: JobRunner;
  /** Mollie or the sandbox; null on a site without a provider, where purchases are unavailable (decision 030). */
  provider: PaymentProvider | null;
  /** The member's name and e-mail for the provider's customer record. */
  customerOf(userId: number): Promise<{ name: string; email: string }>;
  log: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Discount codes; without them a payment with a code is refused as "Code not found". */
  discounts?: PaymentDiscounts;
}

/** What happened when a payment's status was recorded. */
export interface StatusChange {
  payment: PaymentRow;
  from: PaymentStatus;
  to: PaymentStatus;
  /** Credits added by this change (0 unless it recorded `paid`). */
  credited: number;
  /** Credits taken back by this change (a refund or chargeback). */
  reversed: number;
}

/**
 * Payments (issue #11, decision 021): bundles on offer, payments at the provider, and the one place a
 * payment's status is recorded: `sync`, which asks the provider and applies what it answers in one
 * transaction, under the payment's row lock, adding the credits with the ledger key `payment:<id>`.
 * Webhooks, the result page's reconciliation and the periodic job all go through it, so duplicates,
 * retries, reordering and races change nothing twice.
 */
export class PaymentService {
  /** Sends the receipt of a paid payment (defined by the app, enqueued in the paid transaction). */
  receiptJob: JobRef<{ paymentId: number }> | null = null;
  private readonly paidListeners: Array<(tx: Tx, payment: PaymentRow) => Promise<void>> = [];

  constructor(private readonly deps: PaymentsDeps) {}

  /** The provider; on a site without one, every call that needs it answers payments_unavailable. */
  get provider(): PaymentProvider {
    if (!this.deps.provider) throw new AppError("payments_unavailable");
    return this.deps.provider;
  }

  /** Whether purchases can be made at all (a provider is configured; decision 030). */
  get available(): boolean {
    return this.deps.provider !== null;
  }

  /** Other modules' work in the transaction that records a payment as paid (the discounts issue's redemption). */
  onPaid(listener: (tx: Tx, payment: PaymentRow) => Promise<void>): void {
    this.paidListeners.push(listener);
  }

  /** Bundles in the staff console (issue #27; bundles-admin.ts): writes in the caller's transaction. */
  readonly bundles = {
    list: (): Promise<StaffBundle[]> => listBundles(this.deps.db),
    create: (tx: Tx, input: BundleCreate): Promise<StaffBundle> => createBundle(tx, input),
    retire: (tx: Tx, bundleId: number) => retire(tx, bundleId),
  };

  /** The payments' part of the data export (issue #27; export.ts). */
  exportFor(subject: ExportSubject): Promise<ExportPart> {
    return paymentsExport(this.deps.db, subject);
  }

  /** The bundles and methods for a payment country and currency, and the member's repeat order. */
  async offer(
    member: MemberContext | null,
    where: { country: string; currency: string },
  ): Promise<Omit<BundlesResponse, "costs" | "refund_days">> {
    const { db } = this.deps;
    const bundles = await bundlesIn(db, where.currency);
    return {
      country: where.country,
      currency: where.currency,
      bundles: bundles.map(presentBundle),
      methods: methodsFor(where.country, where.currency),
      repeat_order: member ? await this.repeatOffer(member.userId, where.currency) : null,
      purchases_available: this.available,
    };
  }

  /**
   * Starts a purchase: the payment row (once per client id), then the provider's payment. A repeated
   * request with the same client id answers the same payment; a provider that cannot be reached leaves
   * nothing behind, so the same client id may try again.
   */
  async create(
    member: MemberContext,
    input: { bundleId: number; method: PaymentMethod; clientId: string; discountCode?: string | undefined },
    context: PurchaseContext,
  ): Promise<PaymentCreateResponse> {
    const { db } = this.deps;
    if (FORM_METHODS.includes(input.method) || !methodsFor(context.country, context.currency).includes(input.method)) {
      throw new AppError("payment_method_unavailable");
    }
    // A repeated request (double click, retry after a lost answer) answers its payment before the code is
    // checked again: that payment holds the code now, so the check would answer "Code already used".
    const existing = await findMemberPaymentByClientId(db, member.userId, input.clientId);
    if (existing) return this.awaitStarted(existing);
    const bundle = await bundleIn(db, input.bundleId, context.currency);
    if (!bundle) throw new AppError("bundle_unavailable");
    const sequence = FIRST_PAYMENT_METHODS.has(input.method) ? "first" : "oneoff";
    const discount = input.discountCode
      ? await this.discountFor(member, input.discountCode, bundle, input.method, context)
      : undefined;
    return this.start(member, { bundle, method: input.method, clientId: input.clientId, sequence, discount }, context);
  }

  /**
   * "Try again" on a failed, cancelled or expired order (issue #29): the same bundle, method and
   * discount code as a new payment (an order number is one attempt at the provider, so the retry gets
   * its own). Only the member's own one-off orders that took no money: another's answers 404, an open,
   * paid or recurring one `payment_not_retryable`. The code is checked again like any code (the failed
   * payment released it), so one that ended meanwhile answers `code_expired` rather than a full price.
   */
  async retry(
    member: MemberContext,
    input: { paymentId: number; clientId: string },
    context: PurchaseContext,
  ): Promise<PaymentCreateResponse> {
    const row = await findMemberPayment(this.deps.db, member.userId, input.paymentId);
    if (!row) throw new AppError("not_found");
    if (!FAILED_PAYMENT_STATUSES.includes(row.status as PaymentStatus) || row.sequence === "recurring" || row.bundleId === null) {
      throw new AppError("payment_not_retryable");
    }
    return this.create(
      member,
      {
        bundleId: row.bundleId,
        method: row.method as PaymentMethod,
        clientId: input.clientId,
        discountCode: row.discountCode ?? undefined,
      },
      context,
    );
  }

  /**
   * A bundle's price with a discount code for this member and method (GET /api/discountcode.php with a
   * bundle), or the code's errors.
   */
  async quote(
    member: MemberContext,
    input: { code: string; bundleId: number; method?: PaymentMethod | undefined },
    where: { country: string; currency: string },
  ): Promise<{ discount: AppliedDiscount; original: number; discounted: number; currency: string }> {
    const bundle = await bundleIn(this.deps.db, input.bundleId, where.currency);
    if (!bundle) throw new AppError("bundle_unavailable");
    const discount = await this.discountFor(member, input.code, bundle, input.method, where);
    const discounts = this.deps.discounts as PaymentDiscounts;
    return {
      discount,
      original: bundle.amountCents / 100,
      discounted: discounts.discounted(bundle.amountCents, discount) / 100,
      currency: bundle.currency,
    };
  }

  private async discountFor(
    member: MemberContext,
    code: string,
    bundle: BundleOffer,
    method: PaymentMethod | undefined,
    where: { country: string; currency: string },
  ): Promise<AppliedDiscount> {
    const { discounts } = this.deps;
    if (!discounts) throw new AppError("code_not_found");
    const discount = await discounts.apply(member, code, {
      country: where.country,
      currency: where.currency,
      amountCents: bundle.amountCents,
      method: method as PaymentMethod,
    });
    // A provider cannot charge nothing: a code that would make the order free is not for it.
    if (discounts.discounted(bundle.amountCents, discount) < 1) throw new AppError("code_not_applicable");
    return discount;
  }

  /**
   * `/credits/repeat-order`: the member's last paid bundle again, charged to their stored card or
   * mandate without a checkout page. The outcome comes like any other (webhook → sync).
   */
  async repeatOrder(member: MemberContext, clientId: string, context: PurchaseContext): Promise<PaymentCreateResponse> {
    const offer = await this.repeatOffer(member.userId, context.currency);
    const mandate = await activeMandate(this.deps.db, member.userId, this.provider.name);
    const bundle = offer && (await bundleIn(this.deps.db, offer.bundle_id, context.currency));
    if (!offer || !mandate || !bundle) throw new AppError("repeat_order_unavailable");
    return this.start(
      member,
      { bundle, method: mandate.method as PaymentMethod, clientId, sequence: "recurring", mandate: mandate },
      context,
    );
  }

  /**
   * A payment charged to a mandate made just now (the direct-debit form): no checkout page.
   */
  async chargeMandate(
    member: MemberContext,
    input: { bundleId: number; clientId: string; mandateId: string },
    context: PurchaseContext,
  ): Promise<PaymentCreateResponse> {
    const bundle = await bundleIn(this.deps.db, input.bundleId, context.currency);
    if (!bundle) throw new AppError("bundle_unavailable");
    const customerId = await customerOf(this.deps.db, member.userId, this.provider.name);
    if (!customerId) throw new AppError("repeat_order_unavailable");
    return this.start(
      member,
      {
        bundle,
        method: "directdebit",
        clientId: input.clientId,
        sequence: "recurring",
        mandate: { customerId, mandateId: input.mandateId },
      },
      context,
    );
  }

  /** The member's customer at the provider, made on first need (mandates hang under it). */
  async customerFor(member: MemberContext, locale: string): Promise<string> {
    const { db } = this.deps;
    const provider = this.provider;
    const existing = await customerOf(db, member.userId, provider.name);
    if (existing) return existing;
    const person = await this.deps.customerOf(member.userId);
    const created = await callProvider(() => provider.createCustomer({ ...person, locale }));
    return keepCustomer(db, member.userId, provider.name, created);
  }

  /** A SEPA mandate at the provider from the direct-debit form's IBAN. */
  createMandate(input: { customerId: string; name: string; iban: string }): Promise<{ mandateId: string }> {
    return callProvider(() => this.provider.createDirectDebitMandate(input));
  }

  /** Keeps a mandate the member made through the site's own form (direct debit). */
  async keepMandate(
    userId: number,
    mandate: { customerId: string; mandateId: string; method: string; label: string | null },
  ): Promise<void> {
    await insertMandate(this.deps.db, { userId, provider: this.provider.name, ...mandate });
  }

  private async start(
    member: MemberContext,
    input: {
      bundle: BundleOffer;
      method: PaymentMethod;
      clientId: string;
      sequence: "oneoff" | "first" | "recurring";
      mandate?: { customerId: string; mandateId: string };
      discount?: AppliedDiscount | undefined;
    },
    context: PurchaseContext,
  ): Promise<PaymentCreateResponse> {
    const { db, discounts } = this.deps;
    const provider = this.provider;
    const { discount } = input;
    const amountCents =
      discount && discounts ? discounts.discounted(input.bundle.amountCents, discount) : input.bundle.amountCents;
    // The payment row and its hold on the code commit together: a code taken meanwhile refuses both.
    const { row, created } = await db.transaction(async (tx) => {
      const made = await insertPayment(tx, {
        userId: member.userId,
        clientId: input.clientId,
        bundleId: input.bundle.id,
        credits: input.bundle.credits,
        amountCents,
        currency: input.bundle.currency,
        method: input.method,
        country: context.country,
        provider: provider.name,
        sequence: input.sequence,
        locale: context.locale,
        ...(discount
          ? {
              discountCode: discount.code,
              discountPercentage: discount.valuePercentage,
              originalAmountCents: input.bundle.amountCents,
            }
          : {}),
      });
      if (made.created && discount && discounts) await discounts.reserve(tx, discount, member.userId, made.row.id);
      return made;
    });
    if (!created) return this.awaitStarted(row);
    try {
      const customerId =
        input.mandate?.customerId ??
        (input.sequence === "first" ? await this.customerFor(member, providerLocale(context.locale)) : undefined);
      const at = await callProvider(() =>
        provider.createPayment({
          amountCents: row.amountCents,
          currency: row.currency,
          method: input.method,
          description: `${context.siteName} #${row.id}: ${row.credits} credits`,
          redirectUrl: `${context.origin}/transactions/${row.id}`,
          webhookUrl: `${context.origin}/hooks/payments/${provider.name}`,
          locale: providerLocale(context.locale),
          metadata: { payment_id: row.id, user_id: member.userId },
          sequence: input.sequence,
          ...(customerId ? { customerId } : {}),
          ...(input.mandate ? { mandateId: input.mandate.mandateId } : {}),
        }),
      );
      await updatePayment(db, row.id, { providerId: at.id, checkoutUrl: at.checkoutUrl, status: "pending" });
      return { payment_id: row.id, checkout_url: at.checkoutUrl };
    } catch (error) {
      // Nothing reached the member: the row goes, and the same client id may try again.
      await deletePayment(db, row.id);
      throw error;
    }
  }

  /** A repeated create: the first request's payment, once it has reached the provider. */
  private async awaitStarted(row: PaymentRow): Promise<PaymentCreateResponse> {
    const deadline = Date.now() + DUPLICATE_WAIT_MS;
    let current: PaymentRow | undefined = row;
    while (current && !current.providerId && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      current = await findPayment(this.deps.db, row.id);
    }
    if (!current?.providerId) throw new AppError("payment_provider_failed");
    return { payment_id: current.id, checkout_url: current.status === "pending" ? current.checkoutUrl : null };
  }

  /**
   * A member's payment (only their own: another's answers 404). An open one not heard of for a while is
   * asked about first, so a lost webhook never leaves a paid order pending.
   */
  async get(member: MemberContext, id: number): Promise<PaymentRow> {
    const row = await findMemberPayment(this.deps.db, member.userId, id);
    if (!row) throw new AppError("not_found");
    if (OPEN_PAYMENT_STATUSES.includes(row.status as PaymentStatus) && row.providerId && isStale(row)) {
      try {
        return (await this.sync(row.provider, row.providerId))?.payment ?? row;
      } catch (error) {
        this.deps.log.error({ err: error, paymentId: row.id }, "payment reconciliation failed");
      }
    }
    return row;
  }

  list(member: MemberContext): Promise<PaymentRow[]> {
    return paymentsOf(this.deps.db, member.userId, HISTORY_LIMIT);
  }

  /**
   * The one way a status is recorded: asks the provider about its payment and applies the answer.
   * Unknown ids change nothing (answers null): a webhook names only ids, and anybody can post one.
   */
  async sync(providerName: string, providerId: string): Promise<StatusChange | null> {
    // Without a provider there is nobody to ask (a webhook or the reconciliation then changes nothing).
    if (!this.deps.provider || providerName !== this.deps.provider.name) return null;
    if (!(await findPaymentByProviderId(this.deps.db, providerName, providerId))) return null;
    const truth = await callProvider(() => this.provider.getPayment(providerId));
    return this.apply(providerName, providerId, truth);
  }

  /** Records what the provider said, in one transaction under the payment's lock. */
  private async apply(providerName: string, providerId: string, truth: ProviderPayment): Promise<StatusChange | null> {
    const { db, credits, events } = this.deps;
    let deliveries: PendingDelivery[] = [];
    const change = await db.transaction(async (tx) => {
      const row = await lockPaymentByProviderId(tx, providerName, providerId);
      if (!row) return null;
      const from = row.status as PaymentStatus;
      const to = nextStatus(from, statusOf(truth, row.amountCents));
      const result: StatusChange = { payment: row, from, to, credited: 0, reversed: 0 };
      if (to === from) {
        await updatePayment(tx, row.id, { checkedAt: new Date(), checkoutUrl: truth.checkoutUrl });
        return result;
      }
      const values: Partial<PaymentRow> = { status: to, checkedAt: new Date(), checkoutUrl: truth.checkoutUrl };
      if (row.userId !== null && to === "paid") {
        const added = await credits.change(tx, {
          userId: row.userId,
          delta: row.credits,
          reason: "purchase",
          key: `payment:${row.id}`,
        });
        result.credited = added && !added.replayed ? row.credits : 0;
        // Spec §1: any purchase makes the member premium for life.
        await credits.grantPremium(tx, row.userId);
        values.paidAt = new Date();
        if (row.sequence === "first" && truth.mandateId && truth.customerId) {
          await insertMandate(tx, {
            userId: row.userId,
            provider: providerName,
            customerId: truth.customerId,
            mandateId: truth.mandateId,
            method: mandateMethodOf(row.method as PaymentMethod),
            label: truth.mandateLabel,
          });
        }
        if (this.deps.discounts && row.discountCode) await this.deps.discounts.redeem(tx, row.id);
        for (const listener of this.paidListeners) await listener(tx, row);
        if (this.receiptJob)
          await this.deps.jobs.enqueue(this.receiptJob, { paymentId: row.id }, { key: `receipt:${row.id}` }, tx);
      }
      if (row.userId !== null && (to === "refunded" || to === "charged_back")) {
        // A refund support asked for took its credits back already (PaymentSupport.reserveRefund).
        const outstanding = to === "refunded" && row.refundRequestedAt ? 0 : row.credits - row.reversedCredits;
        if (outstanding > 0) {
          const taken = await credits.takeBack(tx, {
            userId: row.userId,
            upTo: outstanding,
            reason: to === "refunded" ? "refund" : "chargeback",
            key: `${to}:${row.id}`,
          });
          result.reversed = taken.taken;
          values.reversedCredits = row.reversedCredits + taken.taken;
        }
        if (to === "charged_back") {
          // Spec §8: a reversed debit blocks direct debit; any chargeback flags the account for staff.
          await flagMember(tx, row.userId, "chargeback", true);
          if (truth.mandateId) await revokeMandate(tx, providerName, truth.mandateId);
        } else if (result.reversed < outstanding) {
          await flagMember(tx, row.userId, "refund_after_spending", false);
        }
      }
      if (this.deps.discounts && row.discountCode && (to === "failed" || to === "cancelled" || to === "expired")) {
        // A payment that took no money does not use its code up.
        await this.deps.discounts.release(tx, row.id);
      }
      if (row.userId !== null && to === "failed" && row.sequence === "recurring") {
        // A failed charge on a stored card or mandate: not used again for repeat orders.
        if (truth.mandateId) await revokeMandate(tx, providerName, truth.mandateId);
        if (row.method === "directdebit") await flagMember(tx, row.userId, "direct_debit_failed", true);
      }
      await updatePayment(tx, row.id, values);
      if (row.userId !== null && (result.credited || result.reversed || to !== from)) {
        deliveries = await events.recordAll(tx, [{ userId: row.userId, event: { type: "user.changed" } }]);
      }
      return { ...result, payment: { ...row, ...values } as PaymentRow };
    });
    await events.deliver(...deliveries);
    if (change && change.from !== change.to) {
      this.deps.log.info(
        { paymentId: change.payment.id, from: change.from, to: change.to, credited: change.credited },
        "payment status",
      );
    }
    return change;
  }

  /**
   * Spec §1 "{refund_days} day free returns": a paid payment within the days, whose credits are still
   * all on the balance, is refunded in full. The credits are taken back first, in one transaction under
   * the payment's lock, so they cannot be spent while the provider refunds; should the provider refuse,
   * they are given back.
   */
  async refund(member: MemberContext, id: number, refundDays: number): Promise<PaymentRow> {
    const { db, credits } = this.deps;
    const provider = this.provider;
    const row = await findMemberPayment(db, member.userId, id);
    if (!row?.providerId) throw new AppError("not_found");
    const providerId = row.providerId;
    // Keys of this request: a refund the provider refused may be asked for again.
    const attempt = `${row.id}:${Date.now()}`;
    await db.transaction(async (tx) => {
      const locked = await lockPaymentByProviderId(tx, row.provider, providerId);
      const balance = (await credits.account(tx, member.userId)).credits;
      if (!locked || !isRefundable(locked, balance, refundDays)) throw new AppError("refund_not_allowed");
      const taken = await credits.takeBack(tx, {
        userId: member.userId,
        upTo: locked.credits,
        reason: "refund",
        key: `refund:${attempt}`,
      });
      await updatePayment(tx, locked.id, { reversedCredits: locked.reversedCredits + taken.taken });
    });
    try {
      await callProvider(() => provider.refundPayment(providerId, row.amountCents, row.currency));
    } catch (error) {
      await db.transaction(async (tx) => {
        await credits.change(tx, {
          userId: member.userId,
          delta: row.credits,
          reason: "refund_failed",
          key: `refund-failed:${attempt}`,
        });
        await updatePayment(tx, row.id, { reversedCredits: 0 });
      });
      throw error;
    }
    return (await this.sync(row.provider, providerId))?.payment ?? row;
  }

  /** Open payments nobody heard of for a while, asked about (the periodic job; lost webhooks). */
  async reconcile(now = new Date()): Promise<number> {
    const stale = await staleOpenPayments(
      this.deps.db,
      new Date(now.getTime() - RECONCILE_AFTER_MS),
      new Date(now.getTime() - 7 * 24 * 3_600_000),
      100,
    );
    let changed = 0;
    for (const row of stale) {
      if (!row.providerId) {
        // A create that died before reaching the provider: nothing was paid.
        if (now.getTime() - row.createdAt.getTime() > 3_600_000) await updatePayment(this.deps.db, row.id, { status: "expired" });
        continue;
      }
      try {
        const change = await this.sync(row.provider, row.providerId);
        if (change && change.from !== change.to) changed++;
      } catch (error) {
        this.deps.log.error({ err: error, paymentId: row.id }, "payment reconciliation failed");
      }
    }
    return changed;
  }

  /** The contract's Payment for a row of the member's (refundable worked out from their balance now). */
  present(row: PaymentRow, balance: number, refundDays: number): Payment {
    return {
      payment_id: row.id,
      status: row.status as PaymentStatus,
      credits: row.credits,
      amount: row.amountCents / 100,
      currency: row.currency,
      method: row.method as PaymentMethod,
      created: row.createdAt.toISOString(),
      paid_at: row.paidAt?.toISOString() ?? null,
      refundable: isRefundable(row, balance, refundDays),
      checkout_url: OPEN_PAYMENT_STATUSES.includes(row.status as PaymentStatus) ? row.checkoutUrl : null,
      bundle_id: row.bundleId,
      recurring: row.sequence === "recurring",
      discount:
        row.discountCode && row.discountPercentage !== null && row.originalAmountCents !== null
          ? { code: row.discountCode, value_percentage: row.discountPercentage, original_amount: row.originalAmountCents / 100 }
          : null,
    };
  }

  /** `preferred` when bundles are priced in it, else euro. */
  async currencyFor(preferred: string): Promise<string> {
    return (await currencySold(this.deps.db, preferred)) ? preferred : "EUR";
  }

  async balanceOf(userId: number): Promise<number> {
    return (await this.deps.credits.account(this.deps.db, userId)).credits;
  }

  findById(id: number): Promise<PaymentRow | undefined> {
    return findPayment(this.deps.db, id);
  }

  private async repeatOffer(userId: number, currency: string): Promise<BundlesResponse["repeat_order"]> {
    const { db } = this.deps;
    if (!this.deps.provider) return null;
    const [last, mandate] = await Promise.all([lastPaidPayment(db, userId), activeMandate(db, userId, this.deps.provider.name)]);
    if (!last || !mandate) return null;
    const bundle = await bundleIn(db, last.bundleId, currency);
    return bundle
      ? {
          bundle_id: bundle.id,
          credits: bundle.credits,
          price: bundle.amountCents / 100,
          method: mandate.method as PaymentMethod,
        }
      : null;
  }
}

function presentBundle(bundle: BundleOffer): BundlesResponse["bundles"][number] {
  return {
    id: bundle.id,
    credits: bundle.credits,
    price: bundle.amountCents / 100,
    currency: bundle.currency,
    best_value: bundle.bestValue,
  };
}

/** The status a provider's answer means for us (a full refund or any chargeback of a paid payment count). */
export function statusOf(truth: ProviderPayment, amountCents: number): PaymentStatus {
  switch (truth.status) {
    case "open":
    case "pending":
    case "authorized":
      return "pending";
    case "paid":
      if (truth.chargedBackCents > 0) return "charged_back";
      return truth.refundedCents >= amountCents ? "refunded" : "paid";
    case "failed":
      return "failed";
    case "canceled":
      return "cancelled";
    case "expired":
      return "expired";
  }
}

/**
 * Which transitions are real (decision 021): an open payment may end any way; a failed, cancelled or
 * expired one only becomes paid (money that arrived late, e.g. a bank transfer); a paid one only
 * refunded or charged back; a refunded one only charged back. Anything else is a late or reordered
 * answer and changes nothing, e.g. "failed" after "paid".
 */
export function nextStatus(from: PaymentStatus, reported: PaymentStatus): PaymentStatus {
  if (from === reported) return from;
  switch (from) {
    case "created":
    case "pending":
      return reported === "created" ? from : reported;
    case "failed":
    case "cancelled":
    case "expired":
      return reported === "paid" || reported === "refunded" || reported === "charged_back" ? reported : from;
    case "paid":
      return reported === "refunded" || reported === "charged_back" ? reported : from;
    case "refunded":
      return reported === "charged_back" ? reported : from;
    case "charged_back":
      return from;
  }
}

/** The free-returns rule (decision 021): paid, within the days, and every credit of it still on the balance. */
export function isRefundable(row: PaymentRow, balance: number, refundDays: number, now = Date.now()): boolean {
  return (
    row.status === "paid" &&
    row.paidAt !== null &&
    row.refundRequestedAt === null &&
    row.reversedCredits === 0 &&
    now - row.paidAt.getTime() <= refundDays * 24 * 3_600_000 &&
    balance >= row.credits
  );
}

const isStale = (row: PaymentRow) => Date.now() - (row.checkedAt ?? row.createdAt).getTime() > RECONCILE_AFTER_MS;

/** The kind of mandate a paid first payment leaves (cards stay cards, PayPal stays PayPal, banks become SEPA). */
function mandateMethodOf(method: PaymentMethod): string {
  if (method === "creditcard" || method === "applepay") return "creditcard";
  return method === "paypal" ? "paypal" : "directdebit";
}

/** Mollie's locale for a site language. */
export function providerLocale(locale: LocaleCode): string {
  const regions: Record<LocaleCode, string> = {
    en: "en_US",
    nl: "nl_NL",
    de: "de_DE",
    es: "es_ES",
    fr: "fr_FR",
    it: "it_IT",
    pl: "pl_PL",
  };
  return regions[locale];
}

async function callProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const failure = new AppError("payment_provider_failed");
    failure.cause = error;
    throw failure;
  }
}
