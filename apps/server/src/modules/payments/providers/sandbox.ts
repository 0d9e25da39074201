import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../platform/db/index.ts";
import type { JobRef, JobRunner } from "../../../platform/jobs.ts";
import type { CreatePaymentInput, PaymentProvider, ProviderPayment, ProviderStatus } from "../provider.ts";
import { ProviderError } from "../provider.ts";
import { sandboxCustomers, sandboxMandates, sandboxPayments } from "./sandbox.schema.ts";

export type SandboxPaymentRow = typeof sandboxPayments.$inferSelect;

/** What the checkout page's buttons may set (issue #11): Mollie's statuses, "open" leaves it pending. */
export const SANDBOX_OUTCOMES = ["paid", "failed", "canceled", "expired", "open"] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];
/** What the sandbox's dashboard can do to a paid payment, as a provider's own dashboard would. */
export const SANDBOX_ACTIONS = ["refund", "chargeback", "revoke_mandate"] as const;
export type SandboxAction = (typeof SANDBOX_ACTIONS)[number];

/** Methods whose paid "first" payment leaves a mandate, and what kind (Mollie's rules). */
const MANDATE_OF: Partial<Record<string, { method: "creditcard" | "paypal" | "directdebit"; label: string }>> = {
  creditcard: { method: "creditcard", label: "Visa •••• 4242" },
  applepay: { method: "creditcard", label: "Apple Pay •••• 4242" },
  paypal: { method: "paypal", label: "PayPal" },
  ideal: { method: "directdebit", label: "NL•• •••• 4300" },
  bancontact: { method: "directdebit", label: "BE•• •••• 4300" },
  kbc: { method: "directdebit", label: "BE•• •••• 4300" },
  belfius: { method: "directdebit", label: "BE•• •••• 4300" },
  eps: { method: "directdebit", label: "AT•• •••• 4300" },
};

const webhookPayload = z.object({ id: z.string(), url: z.string().url() });
const settlePayload = z.object({ id: z.string() });

export interface SandboxOptions {
  /** The checkout page's path prefix: the page is `<prefix><id>` on the site itself. */
  checkoutPath?: string;
  /** The earliest a webhook goes out after a change (default 500 ms); up to 2 s at random come on top. */
  webhookDelayMs?: number;
  /** Random source for the webhook's timing (tests make it certain). */
  random?: () => number;
  /** Posts a webhook; the default is a real HTTP POST. Answers the HTTP status. */
  post?: (url: string, body: string) => Promise<number>;
}

/**
 * The embedded payment provider (issue #11, decision 021): it behaves like Mollie as the site sees it.
 * Payments get a checkout page on which the person paying picks the outcome; the outcome reaches the
 * site only through the webhook `id=<payment id>`, sent asynchronously, at least once, sometimes twice
 * and late (durable jobs, retried until the site answers 2xx); the site then asks `getPayment`.
 * A paid "first" payment leaves a mandate that recurring payments charge without a page; they settle
 * a moment later, paid unless the mandate was revoked.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = "sandbox" as const;
  private readonly checkoutPath: string;
  private readonly random: () => number;
  private readonly webhookDelayMs: number;
  private readonly post: (url: string, body: string) => Promise<number>;
  readonly webhookJob: JobRef<z.infer<typeof webhookPayload>>;
  readonly settleJob: JobRef<z.infer<typeof settlePayload>>;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobRunner,
    options: SandboxOptions = {},
  ) {
    this.checkoutPath = options.checkoutPath ?? "/sandbox/checkout/";
    this.random = options.random ?? Math.random;
    this.webhookDelayMs = options.webhookDelayMs ?? 500;
    this.post = options.post ?? postForm;
    this.webhookJob = jobs.define(
      "sandbox.send-webhook",
      async ({ id, url }) => {
        const status = await this.post(url, new URLSearchParams({ id }).toString());
        if (status < 200 || status >= 300) throw new Error(`webhook answered ${status}`);
      },
      { payload: webhookPayload, maxAttempts: 10, backoffMs: 5_000, maxBackoffMs: 10 * 60_000, timeoutMs: 30_000 },
    );
    this.settleJob = jobs.define("sandbox.settle-recurring", async ({ id }) => this.settleRecurring(id), {
      payload: settlePayload,
      maxAttempts: 5,
      backoffMs: 5_000,
    });
  }

  async createPayment(input: CreatePaymentInput): Promise<ProviderPayment> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new ProviderError("The amount is invalid");
    if (input.sequence !== "oneoff" && !input.customerId)
      throw new ProviderError("A customer is required for first and recurring payments");
    let status: ProviderStatus = "open";
    if (input.sequence === "recurring") {
      const [mandate] = await this.db
        .select()
        .from(sandboxMandates)
        .where(eq(sandboxMandates.id, input.mandateId ?? ""))
        .limit(1);
      if (!mandate || mandate.customerId !== input.customerId)
        throw new ProviderError("The mandate does not exist for this customer");
      status = "pending";
    }
    const [row] = await this.db
      .insert(sandboxPayments)
      .values({
        id: newId("tr_sbx_"),
        amountCents: input.amountCents,
        currency: input.currency,
        method: input.method,
        description: input.description,
        status,
        redirectUrl: input.redirectUrl,
        webhookUrl: input.webhookUrl,
        locale: input.locale,
        metadata: input.metadata,
        sequence: input.sequence,
        customerId: input.customerId ?? null,
        mandateId: input.sequence === "recurring" ? (input.mandateId ?? null) : null,
      })
      .returning();
    if (!row) throw new ProviderError("The payment was not stored");
    // A recurring charge needs nobody: the bank settles it a moment later.
    if (input.sequence === "recurring")
      await this.jobs.enqueue(this.settleJob, { id: row.id }, { runAt: new Date(Date.now() + 1_500) });
    return this.present(row);
  }

  async getPayment(providerId: string): Promise<ProviderPayment> {
    const row = await this.find(providerId);
    if (!row) throw new ProviderError(`No payment ${providerId}`);
    return this.present(row);
  }

  async refundPayment(providerId: string, amountCents: number, currency: string): Promise<void> {
    const row = await this.find(providerId);
    if (row?.status !== "paid") throw new ProviderError("Only a paid payment can be refunded");
    if (currency !== row.currency || amountCents <= 0 || amountCents > row.amountCents - row.refundedCents) {
      throw new ProviderError("The refund amount is invalid");
    }
    await this.db
      .update(sandboxPayments)
      .set({ refundedCents: sql`${sandboxPayments.refundedCents} + ${amountCents}`, updatedAt: sql`now()` })
      .where(eq(sandboxPayments.id, providerId));
    await this.notify(row);
  }

  async createCustomer(input: { name: string; email: string; locale: string }): Promise<string> {
    const id = newId("cst_sbx_");
    await this.db.insert(sandboxCustomers).values({ id, name: input.name, email: input.email });
    return id;
  }

  async createDirectDebitMandate(input: { customerId: string; name: string; iban: string }): Promise<{ mandateId: string }> {
    const iban = input.iban.replace(/\s+/g, "").toUpperCase();
    const id = newId("mdt_sbx_");
    await this.db
      .insert(sandboxMandates)
      .values({ id, customerId: input.customerId, method: "directdebit", label: `${iban.slice(0, 2)}•• •••• ${iban.slice(-4)}` });
    return { mandateId: id };
  }

  /** The payment as its checkout page shows it. */
  find(providerId: string): Promise<SandboxPaymentRow | undefined> {
    return this.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.id, providerId))
      .limit(1)
      .then((rows) => rows[0]);
  }

  /**
   * The checkout page's choice: the payment's outcome (only while it is open or pending, as at a real
   * provider). A paid "first" payment leaves a mandate. Answers the row after the change. `notify:
   * false` sends no webhook: the caller records the outcome itself at once (the seed's demo order,
   * made before the site listens, through PaymentService.sync).
   */
  async complete(
    providerId: string,
    outcome: SandboxOutcome,
    options: { notify?: boolean } = {},
  ): Promise<SandboxPaymentRow | undefined> {
    const row = await this.find(providerId);
    if (!row) return undefined;
    if (row.status !== "open" && row.status !== "pending") return row;
    let mandateId: string | null = row.mandateId;
    const mandate = MANDATE_OF[row.method];
    if (outcome === "paid" && row.sequence === "first" && row.customerId && mandate) {
      mandateId = newId("mdt_sbx_");
      await this.db
        .insert(sandboxMandates)
        .values({ id: mandateId, customerId: row.customerId, method: mandate.method, label: mandate.label });
    }
    const [updated] = await this.db
      .update(sandboxPayments)
      .set({ status: outcome, mandateId, updatedAt: sql`now()` })
      .where(eq(sandboxPayments.id, providerId))
      .returning();
    if (updated && outcome !== "open" && options.notify !== false) await this.notify(updated);
    return updated;
  }

  /** The dashboard's actions on a paid payment: a refund, a chargeback by the bank, a revoked card or mandate. */
  async act(providerId: string, action: SandboxAction): Promise<void> {
    const row = await this.find(providerId);
    if (row?.status !== "paid") return;
    if (action === "refund") {
      if (row.refundedCents < row.amountCents)
        await this.refundPayment(providerId, row.amountCents - row.refundedCents, row.currency);
      return;
    }
    if (action === "chargeback") {
      await this.db
        .update(sandboxPayments)
        .set({ chargedBackCents: row.amountCents, updatedAt: sql`now()` })
        .where(eq(sandboxPayments.id, providerId));
      await this.notify(row);
      return;
    }
    if (row.mandateId) await this.revokeMandate(row.mandateId);
  }

  async revokeMandate(mandateId: string): Promise<void> {
    await this.db.update(sandboxMandates).set({ status: "invalid" }).where(eq(sandboxMandates.id, mandateId));
  }

  /** A recurring charge settles: paid on a valid mandate, failed on a revoked one. */
  private async settleRecurring(providerId: string): Promise<void> {
    const row = await this.find(providerId);
    if (row?.status !== "pending") return;
    const [mandate] = await this.db
      .select()
      .from(sandboxMandates)
      .where(eq(sandboxMandates.id, row.mandateId ?? ""))
      .limit(1);
    await this.complete(providerId, mandate?.status === "valid" ? "paid" : "failed");
  }

  /**
   * Tells the site: one webhook soon, and in a third of the cases a second, later one, like a provider
   * that retries a call whose answer it did not see.
   */
  private async notify(row: SandboxPaymentRow): Promise<void> {
    const now = Date.now() + this.webhookDelayMs;
    const payload = { id: row.id, url: row.webhookUrl };
    await this.jobs.enqueue(this.webhookJob, payload, { runAt: new Date(now + Math.floor(this.random() * 2_000)) });
    if (this.random() < 1 / 3) {
      await this.jobs.enqueue(this.webhookJob, payload, { runAt: new Date(now + 2_000 + Math.floor(this.random() * 6_000)) });
    }
  }

  private async present(row: SandboxPaymentRow): Promise<ProviderPayment> {
    let mandateLabel: string | null = null;
    if (row.mandateId) {
      const [mandate] = await this.db
        .select({ label: sandboxMandates.label })
        .from(sandboxMandates)
        .where(eq(sandboxMandates.id, row.mandateId))
        .limit(1);
      mandateLabel = mandate?.label ?? null;
    }
    return {
      id: row.id,
      status: row.status as ProviderStatus,
      checkoutUrl: row.status === "open" && row.sequence !== "recurring" ? `${this.checkoutPath}${row.id}` : null,
      refundedCents: row.refundedCents,
      chargedBackCents: row.chargedBackCents,
      mandateId: row.mandateId,
      customerId: row.customerId,
      mandateLabel,
    };
  }
}

const newId = (prefix: string) => `${prefix}${randomBytes(9).toString("base64url")}`;

async function postForm(url: string, body: string): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  await response.body?.cancel();
  return response.status;
}
