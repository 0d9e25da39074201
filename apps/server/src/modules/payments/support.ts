import { desc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { CreditService } from "../credits/index.ts";
import { ProviderError } from "./provider.ts";
import { flagMember, type PaymentRow, standingOf, updatePayment } from "./queries.ts";
import { payments } from "./schema.ts";
import type { PaymentService } from "./service.ts";

/** What a support refund did to the member's credits (issue #27). */
export interface SupportRefund {
  payment: PaymentRow;
  /** Credits taken back from the balance now (what was left of the bundle, never below zero). */
  taken: number;
  /** The bundle's credits already spent, which stay spent: the balance cannot go below zero. */
  spent: number;
  balance: number;
  /** The refund had been asked for already (a double click): nothing changed. */
  replayed: boolean;
}

/** Highest payment id a search may name (payments.id is an integer column). */
const MAX_ID = 2_147_483_647;

/**
 * The payments module's part of support: a member's payments, the payment of an id (ours or the
 * provider's), and the refund support asks for. A support refund is not the member's "free returns"
 * (no time limit, credits partly spent allowed): the credits it bought are taken back first, as many
 * as are still on the balance (never below zero; what was spent stays spent and the member is flagged
 * `refund_after_spending`), then the provider refunds the whole amount; should it refuse, the credits are
 * given back and the refund can be asked for again.
 */
export class PaymentSupport {
  constructor(
    private readonly db: Db,
    private readonly credits: CreditService,
    private readonly service: PaymentService,
  ) {}

  /** The member a payment reference belongs to: our order number or the provider's id (tr_…). */
  async userIdsByReference(reference: string): Promise<number[]> {
    const text = reference.trim();
    const id = /^#?\d{1,10}$/.test(text) ? Number(text.replace("#", "")) : null;
    const where =
      id !== null && id <= MAX_ID
        ? sql`${payments.id} = ${id} or ${payments.providerId} = ${text}`
        : eq(payments.providerId, text);
    const rows = await this.db.select({ userId: payments.userId }).from(payments).where(where).limit(5);
    return rows.flatMap((row) => (row.userId === null ? [] : [row.userId]));
  }

  /** The member a payment belongs to (null: unknown, or its account was erased). */
  async ownerOf(paymentId: number): Promise<number | null> {
    const [row] = await this.db.select({ userId: payments.userId }).from(payments).where(eq(payments.id, paymentId)).limit(1);
    return row?.userId ?? null;
  }

  /** The member's payments, latest first, and whether a refund or chargeback flagged them. */
  async of(userId: number, limit: number): Promise<{ payments: PaymentRow[]; flag: { reason: string; at: Date } | null }> {
    const [rows, standing] = await Promise.all([
      this.db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.id)).limit(limit),
      standingOf(this.db, userId),
    ]);
    return {
      payments: rows,
      flag: standing?.flagReason && standing.flaggedAt ? { reason: standing.flagReason, at: standing.flaggedAt } : null,
    };
  }

  /** Whether support may refund this payment now (paid, not refunded or asked to be). */
  static refundable(row: PaymentRow): boolean {
    return row.status === "paid" && row.refundRequestedAt === null && row.providerId !== null && row.userId !== null;
  }

  /**
   * The first half of a support refund, in the caller's transaction (the staff audit's): under the
   * payment's lock, marks the refund as asked for and takes back the credits still on the balance.
   * A payment already asked for answers `replayed` and changes nothing.
   */
  async reserveRefund(tx: Tx, paymentId: number): Promise<SupportRefund> {
    const row = await this.lock(tx, paymentId);
    if (!row || row.userId === null) throw new AppError("not_found");
    const userId = row.userId;
    if (row.refundRequestedAt !== null) {
      const balance = (await this.credits.account(tx, userId)).credits;
      return { payment: row, taken: 0, spent: 0, balance, replayed: true };
    }
    if (!PaymentSupport.refundable(row)) throw new AppError("support_refund_not_allowed");
    const requestedAt = new Date();
    const outstanding = row.credits - row.reversedCredits;
    const taken =
      outstanding > 0
        ? await this.credits.takeBack(tx, {
            userId,
            upTo: outstanding,
            reason: "refund",
            key: `support-refund:${row.id}:${requestedAt.getTime()}`,
          })
        : { taken: 0, balance: (await this.credits.account(tx, userId)).credits };
    const values = { refundRequestedAt: requestedAt, reversedCredits: row.reversedCredits + taken.taken };
    await updatePayment(tx, row.id, values);
    if (taken.taken < outstanding) await flagMember(tx, userId, "refund_after_spending", false);
    return {
      payment: { ...row, ...values },
      taken: taken.taken,
      spent: outstanding - taken.taken,
      balance: taken.balance,
      replayed: false,
    };
  }

  /**
   * The second half: the provider refunds the whole amount, and its new status is recorded (the
   * recorded status then takes nothing more: the credits were taken back by `reserveRefund`).
   * Throws payment_provider_failed when the provider refuses; then call `undoRefund`.
   */
  async sendRefund(payment: PaymentRow): Promise<PaymentRow> {
    const provider = this.service.provider;
    if (!payment.providerId) throw new AppError("support_refund_not_allowed");
    try {
      await provider.refundPayment(payment.providerId, payment.amountCents, payment.currency);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const failure = new AppError("payment_provider_failed");
      failure.cause = error;
      throw failure;
    }
    return (await this.service.sync(payment.provider, payment.providerId))?.payment ?? payment;
  }

  /** Gives back what `reserveRefund` took when the provider refused, in the caller's transaction. */
  async undoRefund(tx: Tx, refund: SupportRefund): Promise<number> {
    const row = await this.lock(tx, refund.payment.id);
    if (!row?.refundRequestedAt || row.userId === null) throw new AppError("not_found");
    let balance = (await this.credits.account(tx, row.userId)).credits;
    if (refund.taken > 0) {
      const given = await this.credits.change(tx, {
        userId: row.userId,
        delta: refund.taken,
        reason: "refund_failed",
        key: `support-refund-failed:${row.id}:${row.refundRequestedAt.getTime()}`,
      });
      balance = given?.balance ?? balance;
    }
    await updatePayment(tx, row.id, {
      refundRequestedAt: null,
      reversedCredits: Math.max(0, row.reversedCredits - refund.taken),
    });
    return balance;
  }

  private async lock(tx: Tx, paymentId: number): Promise<PaymentRow | undefined> {
    const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update").limit(1);
    return row;
  }
}
