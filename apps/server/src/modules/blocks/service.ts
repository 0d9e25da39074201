import { and, desc, eq, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { blocks } from "./schema.ts";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * What other modules do inside the blocking transaction (spec §6: "chats and likes are deleted"): the
 * chat and likes modules register here, so a block and its consequences commit together.
 */
export type BlockHook = (tx: Tx, blockerProfileId: number, blockedProfileId: number) => Promise<void>;

/**
 * Spec §6 blocking, by profile id. The blocked member cannot view the blocker's profile or photos or
 * contact them; neither appears in the other's search, suggestions or related members. The blocker can
 * still open the blocked member's profile, to unblock.
 */
export class BlockService {
  private readonly hooks: BlockHook[] = [];

  constructor(private readonly db: Db) {}

  onBlock(hook: BlockHook): void {
    this.hooks.push(hook);
  }

  /** Blocks `blockedId` for `blockerId`; blocking again changes nothing. */
  async block(blockerId: number, blockedId: number): Promise<void> {
    if (blockerId === blockedId) throw new AppError("cannot_block_self");
    await this.db.transaction(async (tx) => {
      const inserted = await tx.insert(blocks).values({ blockerId, blockedId }).onConflictDoNothing().returning();
      if (inserted.length === 0) return;
      for (const hook of this.hooks) await hook(tx, blockerId, blockedId);
    });
  }

  async unblock(blockerId: number, blockedId: number): Promise<void> {
    await this.db.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
  }

  /** Who blocked whom between two profiles, in one look-up. */
  async between(a: number, b: number): Promise<{ aBlockedB: boolean; bBlockedA: boolean }> {
    const rows = await this.db
      .select({ blockerId: blocks.blockerId })
      .from(blocks)
      .where(or(and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)), and(eq(blocks.blockerId, b), eq(blocks.blockedId, a))));
    return { aBlockedB: rows.some((row) => row.blockerId === a), bBlockedA: rows.some((row) => row.blockerId === b) };
  }

  /**
   * A condition on a profile id column: that profile has not blocked `viewerProfileId` (true for
   * visitors), for other modules' single-row checks such as photo access.
   */
  notBlockedBy(column: SQL, viewerProfileId: number | null): SQL {
    if (!viewerProfileId) return sql`true`;
    return sql`not exists (select 1 from ${blocks} where ${blocks.blockerId} = ${column} and ${blocks.blockedId} = ${viewerProfileId})`;
  }

  /**
   * A condition on a profile id column: no block between that profile and `viewerProfileId` in either
   * direction (true for visitors), for other modules' lists (the search). Two anti-joins on the viewer's
   * few blocks: the list needs no separate look-up of blocked ids first (decision 018).
   */
  notBlockedEitherWay(column: SQL, viewerProfileId: number | null): SQL {
    if (!viewerProfileId) return sql`true`;
    return sql`not exists (select 1 from ${blocks} where ${blocks.blockerId} = ${viewerProfileId} and ${blocks.blockedId} = ${column})
      and not exists (select 1 from ${blocks} where ${blocks.blockedId} = ${viewerProfileId} and ${blocks.blockerId} = ${column})`;
  }

  /** The members `blockerId` blocked, most recent first. */
  async listBlocked(blockerId: number): Promise<{ profileId: number; blockedAt: Date }[]> {
    const rows = await this.db
      .select({ profileId: blocks.blockedId, blockedAt: blocks.createdAt })
      .from(blocks)
      .where(eq(blocks.blockerId, blockerId))
      .orderBy(desc(blocks.createdAt));
    return rows;
  }

  /**
   * The profiles with a block either way with `profileId` (whom they blocked and who blocked them), to
   * leave out of lists. Most members have none, and then the lists need no condition at all.
   */
  async blockedWith(profileId: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: blocks.blockedId })
      .from(blocks)
      .where(eq(blocks.blockerId, profileId))
      .union(this.db.select({ id: blocks.blockerId }).from(blocks).where(eq(blocks.blockedId, profileId)));
    return rows.map((row) => row.id);
  }
}
