import { createHash, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import {
  DIRECT_DEBIT_CODE,
  type directDebitConfirmRequestSchema,
  type directDebitStartRequestSchema,
  type MemberContext,
  type PaymentCreateResponse,
} from "@app/contract";
import { electronicFormatIBAN, extractIBAN, isValidIBAN } from "ibantools";
import type { z } from "zod";
import type { Db } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { t } from "../../platform/i18n.ts";
import type { SmsSender } from "../../platform/sms.ts";
import { isSepaCountry, methodsFor } from "./methods.ts";
import {
  bundleIn,
  directDebitTotalSince,
  findMemberPaymentByClientId,
  insertVerification,
  lockVerification,
  standingOf,
  updateVerification,
  verificationsSince,
} from "./queries.ts";
import type { PaymentService, PurchaseContext } from "./service.ts";

/**
 * How much a member may pay by direct debit in a period (decision 021): a debit can be reversed by the
 * bank for weeks after the credits were spent, so the exposure per member is capped. Over it: spec §8
 * "Your limit for direct debit payments has been reached. Please try later, a cheaper package or
 * another payment method." In cents of the payment currency (direct debit is offered in euro only).
 */
export const DIRECT_DEBIT_LIMIT = { amountCents: 10_000, periodDays: 30 } as const;
/** Codes texted to one member per hour. */
const CODES_PER_HOUR = 5;

/**
 * `/directdebit` (spec §2, §5, §8; decision 021): the member gives the account holder's name, an IBAN
 * and a mobile number; a one-time code goes to the phone by text; the right code makes a SEPA mandate
 * at the provider and charges the bundle to it. Wrong codes count against the code, expired or used
 * ones answer "Code invalid" like wrong ones.
 */
export class DirectDebitService {
  constructor(
    private readonly db: Db,
    private readonly payments: PaymentService,
    private readonly sms: SmsSender,
  ) {}

  async start(
    member: MemberContext,
    input: z.infer<typeof directDebitStartRequestSchema>,
    context: PurchaseContext,
  ): Promise<{ verification_id: string; phone: string; expires_in_seconds: number }> {
    const bundle = await this.admit(member, input.bundle_id, context);
    const iban = electronicFormatIBAN(input.iban) ?? "";
    if (!isValidIBAN(iban) || !isSepaCountry(extractIBAN(iban).countryCode ?? "")) {
      throw new AppError("iban_invalid", {}, { iban: "iban_invalid" });
    }
    const name = input.name.replace(/\s+/g, " ").trim();
    if (!/^[\p{L}][\p{L}\p{M} .'-]+$/u.test(name)) throw new AppError("validation_failed", {}, { name: "invalid_value" });
    const phone = input.phone.replace(/[\s().-]/g, "");
    if (!/^\+[1-9][0-9]{7,14}$/.test(phone)) throw new AppError("phone_invalid", {}, { phone: "phone_invalid" });
    if ((await verificationsSince(this.db, member.userId, new Date(Date.now() - 3_600_000))) >= CODES_PER_HOUR) {
      throw new AppError("rate_limited");
    }
    const id = randomUUID();
    const code = String(randomInt(0, 10 ** DIRECT_DEBIT_CODE.digits)).padStart(DIRECT_DEBIT_CODE.digits, "0");
    await insertVerification(this.db, {
      id,
      userId: member.userId,
      bundleId: bundle.id,
      name,
      iban,
      phone,
      codeHash: hashCode(id, code),
      expiresAt: new Date(Date.now() + DIRECT_DEBIT_CODE.ttlSeconds * 1000),
    });
    await this.sms.send(
      phone,
      t(context.locale, "sms.direct_debit_code", { code, site: context.siteName, minutes: DIRECT_DEBIT_CODE.ttlSeconds / 60 }),
    );
    return { verification_id: id, phone: maskPhone(phone), expires_in_seconds: DIRECT_DEBIT_CODE.ttlSeconds };
  }

  async confirm(
    member: MemberContext,
    input: z.infer<typeof directDebitConfirmRequestSchema>,
    context: PurchaseContext,
  ): Promise<PaymentCreateResponse> {
    // A repeated confirm (the answer was lost) finds the payment the first one made.
    const earlier = await findMemberPaymentByClientId(this.db, member.userId, input.client_id);
    if (earlier) return { payment_id: earlier.id, checkout_url: null };
    const verification = await this.db.transaction(async (tx) => {
      const row = await lockVerification(tx, member.userId, input.verification_id);
      if (!row || row.usedAt || row.expiresAt.getTime() < Date.now() || row.attempts >= DIRECT_DEBIT_CODE.maxAttempts)
        return null;
      if (!sameHash(row.codeHash, hashCode(row.id, input.code))) {
        await updateVerification(tx, row.id, { attempts: row.attempts + 1 });
        return null;
      }
      // Used once; the IBAN is not kept beyond the mandate made from it.
      await updateVerification(tx, row.id, { usedAt: new Date(), iban: "" });
      return row;
    });
    if (!verification) throw new AppError("code_invalid", {}, { code: "code_invalid" });
    await this.admit(member, verification.bundleId, context);
    const customerId = await this.payments.customerFor(member, context.locale);
    const { mandateId } = await this.payments.createMandate({ customerId, name: verification.name, iban: verification.iban });
    await this.payments.keepMandate(member.userId, {
      customerId,
      mandateId,
      method: "directdebit",
      label: `${verification.iban.slice(0, 2)}•• •••• ${verification.iban.slice(-4)}`,
    });
    return this.payments.chargeMandate(
      member,
      { bundleId: verification.bundleId, clientId: input.client_id, mandateId },
      context,
    );
  }

  /** The checks before a code is sent and again before money is taken: block, method, bundle, limit. */
  private async admit(member: MemberContext, bundleId: number, context: PurchaseContext) {
    const standing = await standingOf(this.db, member.userId);
    if (standing?.directDebitBlockedAt) throw new AppError("direct_debit_blocked");
    if (!methodsFor(context.country, context.currency).includes("directdebit")) throw new AppError("payment_method_unavailable");
    const bundle = await bundleIn(this.db, bundleId, context.currency);
    if (!bundle) throw new AppError("bundle_unavailable");
    const since = new Date(Date.now() - DIRECT_DEBIT_LIMIT.periodDays * 24 * 3_600_000);
    const spent = await directDebitTotalSince(this.db, member.userId, since, context.currency);
    if (spent + bundle.amountCents > DIRECT_DEBIT_LIMIT.amountCents) throw new AppError("direct_debit_limit");
    return bundle;
  }
}

const hashCode = (id: string, code: string) => createHash("sha256").update(`${id}:${code.trim()}`).digest("hex");
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** "+31612345678" → "+31 6•••••678": enough to recognise one's own number, not to read it. */
export function maskPhone(phone: string): string {
  return `${phone.slice(0, 3)} ${phone.slice(3, 4)}${"•".repeat(Math.max(0, phone.length - 7))}${phone.slice(-3)}`;
}
