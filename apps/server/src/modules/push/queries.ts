import { and, desc, eq, lt, notExists, notInArray, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../platform/db/index.ts";
import { pushDeliveries, pushRefusals, pushSubscriptions } from "./schema.ts";

export interface NewSubscription {
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
}

export type SubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * Stores a device's subscription by its endpoint: new, refreshed (new keys, counted as fresh), or moved
 * from the member who had it before (a browser now logged in as someone else): never two rows.
 */
export async function upsertSubscription(tx: DbOrTx, row: NewSubscription): Promise<void> {
  await tx
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: {
        userId: row.userId,
        p256dh: row.p256dh,
        auth: row.auth,
        userAgent: row.userAgent,
        refreshedAt: sql`now()`,
        failures: 0,
        // A device that moved to another member is new to them.
        createdAt: sql`case when ${pushSubscriptions.userId} = excluded.user_id then ${pushSubscriptions.createdAt} else now() end`,
      },
    });
}

/** Keeps the member's `keep` most recently refreshed subscriptions and deletes the rest. */
export async function trimSubscriptions(tx: DbOrTx, userId: number, keep: number): Promise<void> {
  const kept = tx
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.refreshedAt), desc(pushSubscriptions.id))
    .limit(keep);
  await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, kept)));
}

/** Removes the member's subscription at `endpoint` (this device gave it up); another member's stays. */
export async function deleteSubscription(db: DbOrTx, userId: number, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

export async function deleteSubscriptionById(db: DbOrTx, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function insertRefusal(db: DbOrTx, userId: number): Promise<void> {
  await db
    .insert(pushRefusals)
    .values({ userId })
    .onConflictDoUpdate({ target: pushRefusals.userId, set: { at: sql`now()` } });
}

export async function deleteRefusal(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(pushRefusals).where(eq(pushRefusals.userId, userId));
}

/** Whether the member has a subscribed device, and whether they refused, in one look-up. */
export async function pushFacts(db: DbOrTx, userId: number): Promise<{ subscribed: boolean; refused: boolean }> {
  const [row] = await rowsOf<{ subscribed: boolean; refused: boolean }>(
    db,
    sql`select
      exists (select 1 from ${pushSubscriptions} where ${pushSubscriptions.userId} = ${userId}) as subscribed,
      exists (select 1 from ${pushRefusals} where ${pushRefusals.userId} = ${userId}) as refused`,
  );
  return { subscribed: !!row?.subscribed, refused: !!row?.refused };
}

/** The member's subscriptions that have not accepted the push of `key` yet. */
export function subscriptionsToSend(db: DbOrTx, userId: number, key: string): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.userId, userId),
        notExists(
          db
            .select({ one: sql`1` })
            .from(pushDeliveries)
            .where(and(eq(pushDeliveries.subscriptionId, pushSubscriptions.id), eq(pushDeliveries.key, key))),
        ),
      ),
    )
    .orderBy(pushSubscriptions.id);
}

/** A push service accepted the push of `key` for this subscription. */
export async function recordAccepted(db: DbOrTx, subscriptionId: number, key: string): Promise<void> {
  await db.update(pushSubscriptions).set({ lastSentAt: sql`now()`, failures: 0 }).where(eq(pushSubscriptions.id, subscriptionId));
  await db.insert(pushDeliveries).values({ subscriptionId, key }).onConflictDoNothing();
}

/** One more failed send in a row; returns the count (0 when the subscription is gone meanwhile). */
export async function recordFailure(db: DbOrTx, subscriptionId: number): Promise<number> {
  const [row] = await db
    .update(pushSubscriptions)
    .set({ failures: sql`${pushSubscriptions.failures} + 1` })
    .where(eq(pushSubscriptions.id, subscriptionId))
    .returning({ failures: pushSubscriptions.failures });
  return row?.failures ?? 0;
}

export async function pruneDeliveries(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(pushDeliveries).where(lt(pushDeliveries.at, before));
}

/** The member's devices and refusal, for their data export. */
export async function pushRecordsOf(db: DbOrTx, userId: number): Promise<{ devices: SubscriptionRow[]; refusedAt: Date | null }> {
  const [devices, [refusal]] = await Promise.all([
    db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(pushSubscriptions.id),
    db.select({ at: pushRefusals.at }).from(pushRefusals).where(eq(pushRefusals.userId, userId)),
  ]);
  return { devices, refusedAt: refusal?.at ?? null };
}
