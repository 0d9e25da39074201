import { and, asc, desc, eq, gt, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../platform/db/index.ts";
import {
  creditBundlePrices,
  creditBundles,
  directDebitVerifications,
  paymentCustomers,
  paymentMandates,
  paymentStanding,
  payments,
} from "./schema.ts";

export type PaymentRow = typeof payments.$inferSelect;
export type MandateRow = typeof paymentMandates.$inferSelect;
export type VerificationRow = typeof directDebitVerifications.$inferSelect;

export interface BundleOffer {
  id: number;
  credits: number;
  bestValue: boolean;
  amountCents: number;
  currency: string;
}

/** Active bundles with their price in `currency`, narrowed by `where`. */
function offers(db: DbOrTx, currency: string, where?: SQL) {
  return db
    .select({
      id: creditBundles.id,
      credits: creditBundles.credits,
      bestValue: creditBundles.bestValue,
      amountCents: creditBundlePrices.amountCents,
      currency: creditBundlePrices.currency,
    })
    .from(creditBundles)
    .innerJoin(creditBundlePrices, eq(creditBundlePrices.bundleId, creditBundles.id))
    .where(and(eq(creditBundles.active, true), eq(creditBundlePrices.currency, currency), where));
}

/** The active bundles priced in `currency`, in their order. */
export function bundlesIn(db: DbOrTx, currency: string): Promise<BundleOffer[]> {
  return offers(db, currency).orderBy(asc(creditBundles.position), asc(creditBundles.id));
}

/** Whether any bundle is priced in `currency`. */
export async function currencySold(db: DbOrTx, currency: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(creditBundlePrices)
    .where(eq(creditBundlePrices.currency, currency))
    .limit(1);
  return !!row;
}

export async function bundleIn(db: DbOrTx, bundleId: number, currency: string): Promise<BundleOffer | undefined> {
  const [row] = await offers(db, currency, eq(creditBundles.id, bundleId)).limit(1);
  return row;
}

/** Inserts a payment unless the member already made one with this client id; returns the row either way. */
export async function insertPayment(
  db: DbOrTx,
  values: typeof payments.$inferInsert & { userId: number },
): Promise<{ row: PaymentRow; created: boolean }> {
  const [inserted] = await db.insert(payments).values(values).onConflictDoNothing().returning();
  if (inserted) return { row: inserted, created: true };
  const existing = await findMemberPaymentByClientId(db, values.userId, values.clientId);
  if (!existing) throw new Error("payment insert conflicted but no row was found");
  return { row: existing, created: false };
}

/** The one payment matching `where`, locked until the transaction ends when `lock` is set. */
async function onePayment(db: DbOrTx, where: SQL | undefined, lock = false): Promise<PaymentRow | undefined> {
  const query = db.select().from(payments).where(where).$dynamic();
  const [row] = await (lock ? query.for("update") : query).limit(1);
  return row;
}

export const findPayment = (db: DbOrTx, id: number) => onePayment(db, eq(payments.id, id));

export const findMemberPayment = (db: DbOrTx, userId: number, id: number) =>
  onePayment(db, and(eq(payments.id, id), eq(payments.userId, userId)));

export const findPaymentByProviderId = (db: DbOrTx, provider: string, providerId: string) =>
  onePayment(db, and(eq(payments.provider, provider), eq(payments.providerId, providerId)));

export const findMemberPaymentByClientId = (db: DbOrTx, userId: number, clientId: string) =>
  onePayment(db, and(eq(payments.userId, userId), eq(payments.clientId, clientId)));

/** The payment with this provider id, locked until the transaction ends (one status change at a time). */
export const lockPaymentByProviderId = (tx: DbOrTx, provider: string, providerId: string) =>
  onePayment(tx, and(eq(payments.provider, provider), eq(payments.providerId, providerId)), true);

export async function updatePayment(db: DbOrTx, id: number, values: Partial<typeof payments.$inferInsert>): Promise<void> {
  await db
    .update(payments)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(payments.id, id));
}

export async function deletePayment(db: DbOrTx, id: number): Promise<void> {
  await db.delete(payments).where(eq(payments.id, id));
}

/** A member's payments, newest first. */
export function paymentsOf(db: DbOrTx, userId: number, limit: number): Promise<PaymentRow[]> {
  return db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.id)).limit(limit);
}

/** The member's last paid payment (what a repeat order buys again). */
export async function lastPaidPayment(db: DbOrTx, userId: number): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.status, "paid")))
    .orderBy(desc(payments.paidAt), desc(payments.id))
    .limit(1);
  return row;
}

/** Open payments last asked about before `checkedBefore` and made after `createdAfter` (reconciliation). */
export function staleOpenPayments(db: DbOrTx, checkedBefore: Date, createdAfter: Date, limit: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(
      and(
        inArray(payments.status, ["created", "pending"]),
        gt(payments.createdAt, createdAfter),
        lt(sql`coalesce(${payments.checkedAt}, ${payments.createdAt})`, checkedBefore),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(limit);
}

/** The member's usable stored card or account, newest first. */
export async function activeMandate(db: DbOrTx, userId: number, provider: string): Promise<MandateRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentMandates)
    .where(and(eq(paymentMandates.userId, userId), eq(paymentMandates.provider, provider), isNull(paymentMandates.revokedAt)))
    .orderBy(desc(paymentMandates.id))
    .limit(1);
  return row;
}

export async function insertMandate(db: DbOrTx, values: typeof paymentMandates.$inferInsert): Promise<void> {
  await db.insert(paymentMandates).values(values).onConflictDoNothing();
}

export async function revokeMandate(db: DbOrTx, provider: string, mandateId: string): Promise<void> {
  await db
    .update(paymentMandates)
    .set({ revokedAt: sql`now()` })
    .where(
      and(eq(paymentMandates.provider, provider), eq(paymentMandates.mandateId, mandateId), isNull(paymentMandates.revokedAt)),
    );
}

export async function customerOf(db: DbOrTx, userId: number, provider: string): Promise<string | undefined> {
  const [row] = await db
    .select({ customerId: paymentCustomers.customerId })
    .from(paymentCustomers)
    .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, provider)))
    .limit(1);
  return row?.customerId;
}

/** Keeps a member's customer id; when two requests made one at once, the first kept wins. */
export async function keepCustomer(db: DbOrTx, userId: number, provider: string, customerId: string): Promise<string> {
  await db.insert(paymentCustomers).values({ userId, provider, customerId }).onConflictDoNothing();
  return (await customerOf(db, userId, provider)) ?? customerId;
}

export async function standingOf(db: DbOrTx, userId: number): Promise<typeof paymentStanding.$inferSelect | undefined> {
  const [row] = await db.select().from(paymentStanding).where(eq(paymentStanding.userId, userId)).limit(1);
  return row;
}

export async function flagMember(db: DbOrTx, userId: number, reason: string, blockDirectDebit: boolean): Promise<void> {
  const now = sql`now()`;
  await db
    .insert(paymentStanding)
    .values({ userId, flaggedAt: now, flagReason: reason, directDebitBlockedAt: blockDirectDebit ? now : null })
    .onConflictDoUpdate({
      target: paymentStanding.userId,
      set: {
        flaggedAt: now,
        flagReason: reason,
        directDebitBlockedAt: blockDirectDebit
          ? sql`coalesce(${paymentStanding.directDebitBlockedAt}, now())`
          : paymentStanding.directDebitBlockedAt,
      },
    });
}

/** The amount a member paid by direct debit since `since`, in cents of `currency` (open and paid ones). */
export async function directDebitTotalSince(db: DbOrTx, userId: number, since: Date, currency: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${payments.amountCents}), 0)::int` })
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.method, "directdebit"),
        eq(payments.currency, currency),
        inArray(payments.status, ["created", "pending", "paid"]),
        gt(payments.createdAt, since),
      ),
    );
  return Number(row?.total ?? 0);
}

export async function insertVerification(db: DbOrTx, values: typeof directDebitVerifications.$inferInsert): Promise<void> {
  await db.insert(directDebitVerifications).values(values);
}

/** Codes sent to a member since `since` (a limit on texts). */
export async function verificationsSince(db: DbOrTx, userId: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(directDebitVerifications)
    .where(and(eq(directDebitVerifications.userId, userId), gt(directDebitVerifications.createdAt, since)));
  return Number(row?.count ?? 0);
}

/** The member's verification, locked (tries are counted one at a time). */
export async function lockVerification(tx: DbOrTx, userId: number, id: string): Promise<VerificationRow | undefined> {
  const [row] = await tx
    .select()
    .from(directDebitVerifications)
    .where(and(eq(directDebitVerifications.id, id), eq(directDebitVerifications.userId, userId)))
    .for("update")
    .limit(1);
  return row;
}

export async function updateVerification(
  db: DbOrTx,
  id: string,
  values: Partial<typeof directDebitVerifications.$inferInsert>,
): Promise<void> {
  await db.update(directDebitVerifications).set(values).where(eq(directDebitVerifications.id, id));
}

// The data export (issue #27)

/** Every payment of a member, oldest first. */
export function allPaymentsOf(db: DbOrTx, userId: number): Promise<PaymentRow[]> {
  return db.select().from(payments).where(eq(payments.userId, userId)).orderBy(asc(payments.id));
}

/** A member's stored cards and accounts, as they were shown to them (label, method), oldest first. */
export function mandatesOf(db: DbOrTx, userId: number) {
  return db
    .select({
      provider: paymentMandates.provider,
      method: paymentMandates.method,
      label: paymentMandates.label,
      createdAt: paymentMandates.createdAt,
      revokedAt: paymentMandates.revokedAt,
    })
    .from(paymentMandates)
    .where(eq(paymentMandates.userId, userId))
    .orderBy(asc(paymentMandates.id));
}

/** A member's direct-debit forms: what they typed (not the code's hash). */
export function verificationsOf(db: DbOrTx, userId: number) {
  return db
    .select({
      name: directDebitVerifications.name,
      iban: directDebitVerifications.iban,
      phone: directDebitVerifications.phone,
      createdAt: directDebitVerifications.createdAt,
      usedAt: directDebitVerifications.usedAt,
    })
    .from(directDebitVerifications)
    .where(eq(directDebitVerifications.userId, userId))
    .orderBy(asc(directDebitVerifications.createdAt));
}

// Bundles in the staff console (issue #27)

/** Every bundle, offered ones first in their order, with its prices and paid purchases. */
export async function bundlesForStaff(db: DbOrTx) {
  const bundles = await db
    .select({
      bundle: creditBundles,
      // Qualified by hand: drizzle writes a one-table select's columns unqualified ("id" would be p's).
      purchases: sql<number>`(select count(*)::int from "payments" p where p."bundle_id" = "credit_bundles"."id" and p."status" = 'paid')`,
    })
    .from(creditBundles)
    .orderBy(desc(creditBundles.active), asc(creditBundles.position), asc(creditBundles.id));
  const prices = await db.select().from(creditBundlePrices);
  return bundles.map((row) => ({
    ...row,
    prices: prices.filter((price) => price.bundleId === row.bundle.id),
  }));
}

/** Adds a bundle after the offered ones, with its prices; best value moves to it when asked. */
export async function insertBundle(
  tx: DbOrTx,
  input: { credits: number; bestValue: boolean; prices: { currency: string; amountCents: number }[] },
) {
  if (input.bestValue) await tx.update(creditBundles).set({ bestValue: false }).where(eq(creditBundles.bestValue, true));
  const [created] = await tx
    .insert(creditBundles)
    .values({
      credits: input.credits,
      bestValue: input.bestValue,
      position: sql`(select coalesce(max(${creditBundles.position}), 0) + 1 from ${creditBundles})`,
    })
    .returning();
  if (!created) throw new Error("bundle insert returned nothing");
  await tx.insert(creditBundlePrices).values(input.prices.map((price) => ({ bundleId: created.id, ...price })));
  return created;
}

/** Stops offering a bundle (the payments that bought it keep it); answers the row before, or nothing. */
export async function retireBundle(tx: DbOrTx, id: number) {
  const [before] = await tx.select().from(creditBundles).where(eq(creditBundles.id, id)).for("update").limit(1);
  if (before) await tx.update(creditBundles).set({ active: false, bestValue: false }).where(eq(creditBundles.id, id));
  return before;
}
