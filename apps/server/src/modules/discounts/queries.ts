import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../platform/db/index.ts";
import { discountCodes, discountRedemptions } from "./schema.ts";

export type DiscountCodeRow = typeof discountCodes.$inferSelect;
export type NewDiscountCode = typeof discountCodes.$inferInsert;

export async function findCode(db: DbOrTx, code: string): Promise<DiscountCodeRow | undefined> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.code, code.trim().toUpperCase())).limit(1);
  return row;
}

/** Active codes a member could see in their selector: their own, and the time bonus and welcome discount. */
export function listableCodes(db: DbOrTx, userId: number): Promise<DiscountCodeRow[]> {
  return db
    .select()
    .from(discountCodes)
    .where(
      and(
        eq(discountCodes.status, "active"),
        or(
          eq(discountCodes.userId, userId),
          and(isNull(discountCodes.userId), inArray(discountCodes.kind, ["time_bonus", "welcome"])),
        ),
      ),
    )
    .orderBy(asc(discountCodes.id));
}

/**
 * How long an open payment holds its code: a second payment within this time is refused ("Code already
 * used"), so that two checkouts at once cannot both get a once-only discount; after it, a new payment
 * takes the code over from an abandoned one (decision 022).
 */
export const HOLD_MINUTES = 15;
const heldSince = () => sql`now() - make_interval(mins => ${HOLD_MINUTES})`;

/**
 * The codes among `codeIds` this member cannot use now: used (paid) by them, held by another open
 * payment of theirs younger than the hold, or, for once-overall codes, used or held by anybody else.
 */
export async function takenCodeIds(db: DbOrTx, userId: number, codeIds: number[]): Promise<Set<number>> {
  if (codeIds.length === 0) return new Set();
  const liveForMe = or(eq(discountRedemptions.status, "redeemed"), gt(discountRedemptions.createdAt, heldSince()));
  const rows = await db
    .select({ codeId: discountRedemptions.codeId })
    .from(discountRedemptions)
    .innerJoin(discountCodes, eq(discountCodes.id, discountRedemptions.codeId))
    .where(
      and(
        inArray(discountRedemptions.codeId, codeIds),
        ne(discountRedemptions.status, "released"),
        or(
          and(eq(discountCodes.validity, "once_per_member"), eq(discountRedemptions.userId, userId), liveForMe),
          and(
            eq(discountCodes.validity, "once"),
            or(ne(discountRedemptions.userId, userId), isNull(discountRedemptions.userId), liveForMe),
          ),
        ),
      ),
    );
  return new Set(rows.map((row) => row.codeId));
}

/**
 * Reserves a code for a payment (in the payment's transaction). This member's reservation of the same
 * scope for another payment older than the hold is released first: the new payment takes the code over
 * from an abandoned checkout. Answers false when the scope is taken otherwise: used, held by a recent
 * payment (two at once), or by someone else.
 */
export async function reserve(
  tx: DbOrTx,
  row: { codeId: number; userId: number; paymentId: number; scopeKey: string | null },
): Promise<boolean> {
  if (row.scopeKey !== null) {
    await tx
      .update(discountRedemptions)
      .set({ status: "released" })
      .where(
        and(
          eq(discountRedemptions.scopeKey, row.scopeKey),
          eq(discountRedemptions.status, "reserved"),
          eq(discountRedemptions.userId, row.userId),
          ne(discountRedemptions.paymentId, row.paymentId),
          lt(discountRedemptions.createdAt, heldSince()),
        ),
      );
  }
  const inserted = await tx
    .insert(discountRedemptions)
    .values({ codeId: row.codeId, userId: row.userId, paymentId: row.paymentId, scopeKey: row.scopeKey })
    .onConflictDoNothing()
    .returning({ id: discountRedemptions.id });
  return inserted.length > 0;
}

/**
 * The payment was paid: its reservation becomes a redemption. A reservation a newer payment took over
 * meanwhile is redeemed all the same (the money came in at the discounted price), outside the scope.
 */
export async function redeem(tx: DbOrTx, paymentId: number): Promise<void> {
  await tx
    .update(discountRedemptions)
    .set({
      status: "redeemed",
      redeemedAt: sql`now()`,
      scopeKey: sql`case when ${discountRedemptions.status} = 'released' then null else ${discountRedemptions.scopeKey} end`,
    })
    .where(and(eq(discountRedemptions.paymentId, paymentId), ne(discountRedemptions.status, "redeemed")));
}

/** The payment failed, was cancelled or expired: the code is free again. */
export async function release(tx: DbOrTx, paymentId: number): Promise<void> {
  await tx
    .update(discountRedemptions)
    .set({ status: "released" })
    .where(and(eq(discountRedemptions.paymentId, paymentId), eq(discountRedemptions.status, "reserved")));
}

export async function insertCodes(db: DbOrTx, rows: NewDiscountCode[]): Promise<void> {
  if (rows.length) await db.insert(discountCodes).values(rows).onConflictDoNothing();
}

// The data export (issue #27)

/** A member's uses of codes (reserved, redeemed, released), with the code, oldest first. */
export function redemptionsOfUser(db: DbOrTx, userId: number) {
  return db
    .select({
      code: discountCodes.code,
      valuePercentage: discountCodes.valuePercentage,
      paymentId: discountRedemptions.paymentId,
      status: discountRedemptions.status,
      createdAt: discountRedemptions.createdAt,
      redeemedAt: discountRedemptions.redeemedAt,
    })
    .from(discountRedemptions)
    .innerJoin(discountCodes, eq(discountCodes.id, discountRedemptions.codeId))
    .where(eq(discountRedemptions.userId, userId))
    .orderBy(asc(discountRedemptions.id));
}

/** The codes made for this member alone. */
export function codesOfUser(db: DbOrTx, userId: number): Promise<DiscountCodeRow[]> {
  return db.select().from(discountCodes).where(eq(discountCodes.userId, userId)).orderBy(asc(discountCodes.id));
}

// The staff console (issue #27)

/** Every code, newest first, with its redeemed and reserved uses counted. */
export function codesWithUses(db: DbOrTx, limit: number) {
  return db
    .select({
      code: discountCodes,
      // Written out qualified: drizzle leaves a column of a one-table select unqualified, and inside the
      // subquery "id" would be the redemption's own.
      redeemed: sql<number>`(select count(*)::int from "discount_redemptions" r where r."code_id" = "discount_codes"."id" and r."status" = 'redeemed')`,
      reserved: sql<number>`(select count(*)::int from "discount_redemptions" r where r."code_id" = "discount_codes"."id" and r."status" = 'reserved')`,
    })
    .from(discountCodes)
    .orderBy(desc(discountCodes.id))
    .limit(limit);
}

/** One code's uses, newest first. */
export function redemptionsOfCode(db: DbOrTx, codeId: number, limit: number) {
  return db
    .select()
    .from(discountRedemptions)
    .where(eq(discountRedemptions.codeId, codeId))
    .orderBy(desc(discountRedemptions.id))
    .limit(limit);
}

export async function lockCode(tx: DbOrTx, id: number): Promise<DiscountCodeRow | undefined> {
  const [row] = await tx.select().from(discountCodes).where(eq(discountCodes.id, id)).for("update").limit(1);
  return row;
}

export async function insertCode(tx: DbOrTx, row: NewDiscountCode): Promise<DiscountCodeRow | undefined> {
  const [created] = await tx.insert(discountCodes).values(row).onConflictDoNothing().returning();
  return created;
}

export async function setCodeExpiry(tx: DbOrTx, id: number, expiresAt: Date): Promise<DiscountCodeRow | undefined> {
  const [row] = await tx.update(discountCodes).set({ expiresAt }).where(eq(discountCodes.id, id)).returning();
  return row;
}
