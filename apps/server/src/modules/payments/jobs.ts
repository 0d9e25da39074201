import type { CompanyInfo } from "@app/contract";
import type { JobRef, JobRunner } from "../../platform/jobs.ts";
import type { Mailer } from "../../platform/mailer.ts";
import { receiptEmail } from "./receipt.ts";
import type { PaymentService } from "./service.ts";

export interface PaymentJobs {
  receipt: JobRef<{ paymentId: number }>;
  reconcile: JobRef<undefined>;
}

/**
 * The payments module's durable jobs: the receipt of a paid order (enqueued in the transaction that
 * records `paid`, so it goes out once the payment is surely paid, and at least once), and the periodic
 * reconciliation that asks the provider about open payments whose webhook never came.
 */
export function definePaymentJobs(
  jobs: JobRunner,
  payments: PaymentService,
  deps: {
    mailer: Mailer;
    recipientOf(userId: number): Promise<{ email: string; name: string } | null>;
    site(): Promise<{ name: string; origin: string; company: CompanyInfo }>;
    log: { info(obj: object, msg: string): void };
  },
): PaymentJobs {
  const receipt = jobs.define<{ paymentId: number }>(
    "payments.receipt",
    async ({ paymentId }) => {
      const payment = await payments.findById(paymentId);
      if (!payment?.userId || !payment.paidAt) return;
      const [recipient, site] = await Promise.all([deps.recipientOf(payment.userId), deps.site()]);
      if (!recipient) return;
      const message = receiptEmail({
        payment,
        name: recipient.name,
        site: site.name,
        link: `${site.origin}/transactions/${payment.id}`,
        company: site.company,
      });
      await deps.mailer.send({ to: recipient.email, ...message });
    },
    { maxAttempts: 8, backoffMs: 60_000 },
  );
  payments.receiptJob = receipt;
  const reconcile = jobs.define(
    "payments.reconcile",
    async () => {
      const changed = await payments.reconcile();
      if (changed) deps.log.info({ changed }, "reconciled open payments with the provider");
    },
    { maxAttempts: 1, timeoutMs: 4 * 60_000 },
  );
  return { receipt, reconcile };
}
