import {
  type Discount,
  type DiscountValidity,
  discountedCents,
  LIMITS,
  type LocaleCode,
  type MemberContext,
  type PaymentMethod,
  type TimeBonus,
  WELCOME_DISCOUNT_CODE,
} from "@app/contract";
import { type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { DiscountAdmin } from "./admin.ts";
import {
  codesOfUser,
  type DiscountCodeRow,
  findCode,
  insertCodes,
  listableCodes,
  type NewDiscountCode,
  redeem,
  redemptionsOfUser,
  release,
  reserve,
  takenCodeIds,
} from "./queries.ts";

/** What is being bought, as far as it is known: a code may be checked before a bundle or method is chosen. */
export interface DiscountOrder {
  country: string;
  currency: string;
  /** The bundle's price in cents of `currency`. */
  amountCents?: number | undefined;
  method?: PaymentMethod | undefined;
}

/** A code that applies: what the payment records and charges. */
export interface AppliedDiscount {
  codeId: number;
  code: string;
  valuePercentage: number;
  scopeKey: string | null;
}

/**
 * Discount codes, the welcome discount and the time bonus (issue #12, decision 022). The payments module
 * asks `apply` when a payment is made (the provider then charges the discounted amount), reserves the
 * code in the payment's transaction, and redeems or releases it in the transaction that records the
 * payment's outcome; a failed or cancelled payment does not use a code up.
 */
export class DiscountService {
  /** The staff console's side: list, create and expire codes (issue #27; admin.ts). */
  readonly admin: DiscountAdmin;

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.admin = new DiscountAdmin(db, () => this.clock());
  }

  /**
   * The discounts' part of the data export (issue #27): the codes the member used (or a payment held
   * for them) and the codes made for them alone.
   */
  async exportFor({ userId }: ExportSubject): Promise<ExportPart> {
    const [redemptions, own] = await Promise.all([redemptionsOfUser(this.db, userId), codesOfUser(this.db, userId)]);
    return {
      json: {
        discounts: {
          redemptions: redemptions.map((row) => ({
            code: row.code,
            value_percentage: row.valuePercentage,
            order: row.paymentId,
            status: row.status,
            created_at: isoOrNull(row.createdAt),
            redeemed_at: isoOrNull(row.redeemedAt),
          })),
          own_codes: own.map((row) => ({
            code: row.code,
            value_percentage: row.valuePercentage,
            status: row.status,
            expires_at: isoOrNull(row.expiresAt),
            created_at: isoOrNull(row.createdAt),
          })),
        },
      },
    };
  }

  /**
   * Checks a code for a member and an order, and answers it applied; throws the spec's errors
   * (code_not_found "Code not found", code_already_used "Code already used") and ours.
   */
  async apply(member: MemberContext, input: string, order: DiscountOrder, db: DbOrTx = this.db): Promise<AppliedDiscount> {
    const row = await findCode(db, input);
    // Another member's own code is as unknown as a code that does not exist.
    if (row?.status !== "active" || (row.userId !== null && row.userId !== member.userId)) throw new AppError("code_not_found");
    const now = this.clock();
    if (secondsLeft(row, member, now) === 0) throw new AppError("code_expired");
    if (row.firstPurchaseOnly && member.paid) throw new AppError("code_not_applicable");
    if ((row.country && row.country !== order.country) || (row.currency && row.currency !== order.currency)) {
      throw new AppError("code_not_applicable");
    }
    if (order.method && row.paymentMethods?.length && !row.paymentMethods.includes(order.method)) {
      throw new AppError("code_not_applicable");
    }
    if (row.minimumOrderCents !== null && order.amountCents !== undefined && order.amountCents < row.minimumOrderCents) {
      const currency = row.currency ?? order.currency;
      throw new AppError("code_minimum_order", { amount: formatMoney(row.minimumOrderCents, currency, member.locale) });
    }
    if ((await takenCodeIds(db, member.userId, [row.id])).has(row.id)) throw new AppError("code_already_used");
    return { codeId: row.id, code: row.code, valuePercentage: row.valuePercentage, scopeKey: scopeOf(row, member.userId) };
  }

  /** The discounted price of an order in cents. */
  discounted(amountCents: number, discount: Pick<AppliedDiscount, "valuePercentage">): number {
    return discountedCents(amountCents, discount.valuePercentage);
  }

  /** Holds the code for a payment, in the payment's transaction; "Code already used" when another took it. */
  async reserve(tx: DbOrTx, discount: AppliedDiscount, userId: number, paymentId: number): Promise<void> {
    if (!(await reserve(tx, { codeId: discount.codeId, userId, paymentId, scopeKey: discount.scopeKey }))) {
      throw new AppError("code_already_used");
    }
  }

  /** The payment was paid: the code is used (payments' paid transaction). */
  redeem = (tx: DbOrTx, paymentId: number): Promise<void> => redeem(tx, paymentId);

  /** The payment failed, was cancelled or expired: the code is free again. */
  release = (tx: DbOrTx, paymentId: number): Promise<void> => release(tx, paymentId);

  /**
   * Spec §4: the time bonus of a logged-in, non-paid member who signed up less than 14400 s ago and has
   * not used it; null otherwise.
   */
  async timeBonus(member: MemberContext): Promise<TimeBonus | null> {
    if (member.paid) return null;
    const row = await findCode(this.db, LIMITS.timeBonusCode);
    if (row?.status !== "active") return null;
    const left = secondsLeft(row, member, this.clock());
    if (left === 0 || (await takenCodeIds(this.db, member.userId, [row.id])).has(row.id)) return null;
    return { code: row.code, value_percentage: row.valuePercentage, seconds_left: left ?? LIMITS.timeBonusSeconds };
  }

  /** The member's welcome discount (spec §1: first purchase, for a limited time after signup), or null. */
  async welcome(member: MemberContext): Promise<Discount | null> {
    if (member.paid) return null;
    const row = await findCode(this.db, WELCOME_DISCOUNT_CODE);
    if (row?.status !== "active") return null;
    const now = this.clock();
    if (secondsLeft(row, member, now) === 0 || (await takenCodeIds(this.db, member.userId, [row.id])).has(row.id)) return null;
    return present(row, member, now);
  }

  /** The codes the member can use now, for the checkout's selector: the time bonus first, then the best. */
  async usable(member: MemberContext): Promise<Discount[]> {
    const now = this.clock();
    const rows = (await listableCodes(this.db, member.userId)).filter(
      (row) => secondsLeft(row, member, now) !== 0 && !(row.firstPurchaseOnly && member.paid),
    );
    const taken = await takenCodeIds(
      this.db,
      member.userId,
      rows.map((row) => row.id),
    );
    const order = (row: DiscountCodeRow) => (row.kind === "time_bonus" ? 0 : 1);
    return rows
      .filter((row) => !taken.has(row.id))
      .sort((a, b) => order(a) - order(b) || b.valuePercentage - a.valuePercentage)
      .map((row) => present(row, member, now));
  }

  /** A code as the member sees it. */
  present(row: DiscountCodeRow, member: MemberContext): Discount {
    return present(row, member, this.clock());
  }

  /** An applied code as the member sees it. */
  async presentApplied(applied: Pick<AppliedDiscount, "codeId" | "code">, member: MemberContext): Promise<Discount> {
    const row = await findCode(this.db, applied.code);
    if (!row) throw new AppError("code_not_found");
    return present(row, member, this.clock());
  }

  async find(code: string): Promise<DiscountCodeRow | undefined> {
    return findCode(this.db, code);
  }

  /** Adds codes (seed, staff tools later); codes are stored in upper case, existing ones stay. */
  async add(rows: NewDiscountCode[]): Promise<void> {
    await insertCodes(
      this.db,
      rows.map((row) => ({ ...row, code: row.code.toUpperCase() })),
    );
  }
}

/** The live-row scope of a code's use (see discount_redemptions). */
function scopeOf(row: DiscountCodeRow, userId: number): string | null {
  const validity = row.validity as DiscountValidity;
  if (validity === "once_per_member") return `${row.id}:${userId}`;
  return validity === "once" ? String(row.id) : null;
}

/**
 * Seconds until a code ends for this member: the earlier of its end date and the end of its window
 * after signup; null when neither is set; 0 when it has ended.
 */
function secondsLeft(row: DiscountCodeRow, member: MemberContext, now: Date): number | null {
  const ends: number[] = [];
  if (row.expiresAt) ends.push(row.expiresAt.getTime());
  if (row.signupWindowSeconds !== null) ends.push(member.signupDate.getTime() + row.signupWindowSeconds * 1000);
  if (ends.length === 0) return null;
  // Whole seconds, rounded up: a code with 0.4 s left still has "1 s" and works.
  return Math.max(0, Math.ceil((Math.min(...ends) - now.getTime()) / 1000));
}

function present(row: DiscountCodeRow, member: MemberContext, now: Date): Discount {
  const left = secondsLeft(row, member, now);
  return {
    code: row.code,
    kind: row.kind as Discount["kind"],
    user_id: row.userId,
    status: row.status as Discount["status"],
    value_percentage: row.valuePercentage,
    expired: left === 0,
    expires: left === null ? null : new Date(now.getTime() + left * 1000).toISOString(),
    seconds_left: left,
    country: row.country,
    currency: row.currency,
    minimum_order_value: row.minimumOrderCents === null ? null : row.minimumOrderCents / 100,
    paymentmethods: (row.paymentMethods as PaymentMethod[] | null) ?? null,
    validity: row.validity as DiscountValidity,
  };
}

const formatMoney = (cents: number, currency: string, locale: LocaleCode) =>
  new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
