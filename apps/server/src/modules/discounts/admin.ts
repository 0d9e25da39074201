import type { DiscountCreate, StaffDiscount, StaffRedemption } from "@app/contract";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import {
  codesWithUses,
  type DiscountCodeRow,
  findCode,
  insertCode,
  lockCode,
  redemptionsOfCode,
  setCodeExpiry,
} from "./queries.ts";

/** How many codes and uses the console lists at once (newest first). */
export const STAFF_LIST_LIMIT = 500;

/**
 * Discount codes in the staff console (issue #27): list them with their uses, create one, expire one.
 * Every write takes the caller's transaction: staff.audited writes the audit row in the same one.
 */
export class DiscountAdmin {
  constructor(
    private readonly db: Db,
    private readonly clock: () => Date,
  ) {}

  async list(): Promise<StaffDiscount[]> {
    const now = this.clock();
    return (await codesWithUses(this.db, STAFF_LIST_LIMIT)).map((row) =>
      presentStaff(row.code, Number(row.redeemed), Number(row.reserved), now),
    );
  }

  /** A code's uses; not_found when there is no such code. */
  async redemptions(codeId: number): Promise<{ discount: StaffDiscount; redemptions: StaffRedemption[] }> {
    const discount = (await this.list()).find((row) => row.id === codeId);
    if (!discount) throw new AppError("not_found");
    const rows = await redemptionsOfCode(this.db, codeId, STAFF_LIST_LIMIT);
    return {
      discount,
      redemptions: rows.map((row) => ({
        id: row.id,
        user_id: row.userId,
        payment_id: row.paymentId,
        status: row.status as StaffRedemption["status"],
        created_at: row.createdAt.toISOString(),
        redeemed_at: row.redeemedAt?.toISOString() ?? null,
      })),
    };
  }

  /**
   * Creates a code (kind "code"). An end date must lie ahead; a code whose name exists answers
   * discount_code_taken, and nothing is written.
   */
  async create(tx: DbOrTx, input: DiscountCreate): Promise<StaffDiscount> {
    const now = this.clock();
    if (input.expires_at && Date.parse(input.expires_at) <= now.getTime()) {
      throw new AppError("validation_failed", {}, { expires_at: "invalid_value" });
    }
    if (await findCode(tx, input.code)) throw new AppError("discount_code_taken", {}, { code: "discount_code_taken" });
    const created = await insertCode(tx, {
      code: input.code,
      kind: "code",
      valuePercentage: input.value_percentage,
      validity: input.validity,
      expiresAt: input.expires_at ? new Date(input.expires_at) : null,
      country: input.country,
      currency: input.currency,
      minimumOrderCents: input.minimum_order_cents,
      paymentMethods: input.payment_methods,
      firstPurchaseOnly: input.first_purchase_only,
      userId: input.user_id,
    });
    // Two creations of one name at once: the second finds the unique index taken.
    if (!created) throw new AppError("discount_code_taken", {}, { code: "discount_code_taken" });
    return presentStaff(created, 0, 0, now);
  }

  /**
   * Ends a code now: no new payment can take it (a payment already holding it keeps its discount, as a
   * code that reaches its end date would). An already ended code stays as it is. Null: no such code.
   */
  async expire(tx: DbOrTx, codeId: number): Promise<{ before: string | null; after: string } | null> {
    const row = await lockCode(tx, codeId);
    if (!row) return null;
    const now = this.clock();
    const before = row.expiresAt?.toISOString() ?? null;
    if (row.expiresAt && row.expiresAt <= now) return { before, after: row.expiresAt.toISOString() };
    await setCodeExpiry(tx, codeId, now);
    return { before, after: now.toISOString() };
  }
}

function presentStaff(row: DiscountCodeRow, redeemed: number, reserved: number, now: Date): StaffDiscount {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind as StaffDiscount["kind"],
    value_percentage: row.valuePercentage,
    validity: row.validity as StaffDiscount["validity"],
    status: row.status as StaffDiscount["status"],
    expires_at: row.expiresAt?.toISOString() ?? null,
    expired: row.status !== "active" || (row.expiresAt !== null && row.expiresAt <= now),
    country: row.country,
    currency: row.currency,
    minimum_order_cents: row.minimumOrderCents,
    payment_methods: row.paymentMethods,
    first_purchase_only: row.firstPurchaseOnly,
    signup_window_seconds: row.signupWindowSeconds,
    user_id: row.userId,
    created_at: row.createdAt.toISOString(),
    redeemed,
    reserved,
  };
}
