import { and, desc, eq, or, type SQL, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import { blocks } from "./schema.ts";

/** Inserts a block; true when it is new (blocking again changes nothing). */
export async function insertBlock(tx: DbOrTx, blockerId: number, blockedId: number): Promise<boolean> {
  const inserted = await tx.insert(blocks).values({ blockerId, blockedId }).onConflictDoNothing().returning();
  return inserted.length > 0;
}

export async function deleteBlock(db: DbOrTx, blockerId: number, blockedId: number): Promise<void> {
  await db.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
}

/** The blockers among the pair (a, b), in one look-up. */
export async function blockersBetween(db: Db, a: number, b: number): Promise<number[]> {
  const rows = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)), and(eq(blocks.blockerId, b), eq(blocks.blockedId, a))));
  return rows.map((row) => row.blockerId);
}

/** A condition on a profile id column: that profile has not blocked `viewerProfileId`. */
export function notBlockedByCondition(column: SQL, viewerProfileId: number): SQL {
  return sql`not exists (select 1 from ${blocks} where ${blocks.blockerId} = ${column} and ${blocks.blockedId} = ${viewerProfileId})`;
}

/**
 * A condition on a profile id column: a block either way between it and `viewerProfileId` (or, with
 * `blocked` false, none). The viewer's few blocks are collected once per statement (an InitPlan) and the
 * id compared with that array in the scan's own filter: an anti-join per direction cost each listed row
 * two block look-ups (decision 018; both columns are NOT NULL, so `<> all` never meets a null).
 */
export function blockedEitherWayCondition(column: SQL, viewerProfileId: number, blocked: boolean): SQL {
  const blockedIds = sql`array(select ${blocks.blockedId} from ${blocks} where ${blocks.blockerId} = ${viewerProfileId}
      union all select ${blocks.blockerId} from ${blocks} where ${blocks.blockedId} = ${viewerProfileId})`;
  return blocked ? sql`${column} = any(${blockedIds})` : sql`${column} <> all(${blockedIds})`;
}

export async function blockedBy(db: Db, blockerId: number): Promise<{ profileId: number; blockedAt: Date }[]> {
  return db
    .select({ profileId: blocks.blockedId, blockedAt: blocks.createdAt })
    .from(blocks)
    .where(eq(blocks.blockerId, blockerId))
    .orderBy(desc(blocks.createdAt));
}

/** Profiles with a block either way with `profileId`. */
export async function blockedEitherWay(db: Db, profileId: number): Promise<number[]> {
  const rows = await db
    .select({ id: blocks.blockedId })
    .from(blocks)
    .where(eq(blocks.blockerId, profileId))
    .union(db.select({ id: blocks.blockerId }).from(blocks).where(eq(blocks.blockedId, profileId)));
  return rows.map((row) => row.id);
}
