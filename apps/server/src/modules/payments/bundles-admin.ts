import type { BundleCreate, StaffBundle } from "@app/contract";
import type { DbOrTx } from "../../platform/db/index.ts";
import { bundlesForStaff, insertBundle, retireBundle } from "./queries.ts";

/**
 * Credit bundles in the staff console (issue #27): list them with prices and purchases, add one, retire
 * one. Writes take the caller's transaction (staff.audited). A retired bundle is no longer offered; the
 * payments that bought it keep their credits, amount and currency (copied when each was made).
 */
export async function listBundles(db: DbOrTx): Promise<StaffBundle[]> {
  return (await bundlesForStaff(db)).map(({ bundle, purchases, prices }) => ({
    id: bundle.id,
    credits: bundle.credits,
    position: bundle.position,
    best_value: bundle.bestValue,
    active: bundle.active,
    prices: Object.fromEntries(prices.map((price) => [price.currency, price.amountCents])),
    purchases: Number(purchases),
  }));
}

export async function createBundle(tx: DbOrTx, input: BundleCreate): Promise<StaffBundle> {
  const created = await insertBundle(tx, {
    credits: input.credits,
    bestValue: input.best_value,
    prices: Object.entries(input.prices).map(([currency, amountCents]) => ({ currency, amountCents })),
  });
  return {
    id: created.id,
    credits: created.credits,
    position: created.position,
    best_value: created.bestValue,
    active: created.active,
    prices: input.prices,
    purchases: 0,
  };
}

/** Null: no such bundle. */
export async function retire(
  tx: DbOrTx,
  bundleId: number,
): Promise<{ before: { active: boolean }; after: { active: false } } | null> {
  const before = await retireBundle(tx, bundleId);
  return before ? { before: { active: before.active }, after: { active: false } } : null;
}
