import { type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import type { DbOrTx } from "../../platform/db/index.ts";
import { allPaymentsOf, mandatesOf, standingOf, verificationsOf } from "./queries.ts";

/**
 * The payments' part of the data export (issue #27): every purchase attempt with its discount, the
 * stored cards and accounts as the member saw them, the direct-debit forms they filled in and whether
 * a refund or chargeback flagged them. Not the provider's checkout link, nor a code's hash.
 */
export async function paymentsExport(db: DbOrTx, { userId }: ExportSubject): Promise<ExportPart> {
  const [payments, mandates, verifications, standing] = await Promise.all([
    allPaymentsOf(db, userId),
    mandatesOf(db, userId),
    verificationsOf(db, userId),
    standingOf(db, userId),
  ]);
  return {
    json: {
      payments: {
        payments: payments.map((row) => ({
          order: row.id,
          status: row.status,
          credits: row.credits,
          amount_cents: row.amountCents,
          currency: row.currency,
          method: row.method,
          country: row.country,
          provider: row.provider,
          provider_id: row.providerId,
          sequence: row.sequence,
          discount_code: row.discountCode,
          discount_percentage: row.discountPercentage,
          original_amount_cents: row.originalAmountCents,
          reversed_credits: row.reversedCredits,
          created_at: isoOrNull(row.createdAt),
          paid_at: isoOrNull(row.paidAt),
        })),
        stored_methods: mandates.map((row) => ({
          provider: row.provider,
          method: row.method,
          label: row.label,
          created_at: isoOrNull(row.createdAt),
          revoked_at: isoOrNull(row.revokedAt),
        })),
        direct_debit_forms: verifications.map((row) => ({
          name: row.name,
          iban: row.iban,
          phone: row.phone,
          created_at: isoOrNull(row.createdAt),
          used_at: isoOrNull(row.usedAt),
        })),
        standing: standing
          ? {
              flagged_at: isoOrNull(standing.flaggedAt),
              flag_reason: standing.flagReason,
              direct_debit_blocked_at: isoOrNull(standing.directDebitBlockedAt),
            }
          : null,
      },
    },
  };
}
