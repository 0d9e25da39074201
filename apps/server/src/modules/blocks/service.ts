import { type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import type { Db, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { blockedBy, blockedEitherWay, blockersBetween, deleteBlock, insertBlock } from "./queries.ts";

/**
 * What other modules do inside the blocking transaction (spec §6: "chats and likes are deleted"): the
 * chat and likes modules register here, so a block and its consequences commit together.
 */
export type BlockHook = (tx: Tx, blockerProfileId: number, blockedProfileId: number) => Promise<AfterCommit | undefined>;
/** What a hook does once the block has committed (send the member events it recorded). */
export type AfterCommit = () => Promise<void>;

/**
 * Spec §6 blocking, by profile id. The blocked member cannot view the blocker's profile or photos or
 * contact them; neither appears in the other's search, suggestions or related members. The blocker can
 * still open the blocked member's profile, to unblock. Who may see whom is the visibility policy's
 * answer (modules/visibility), which takes its block conditions from here.
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
    const afterCommit = await this.db.transaction(async (tx) => {
      const then: AfterCommit[] = [];
      if (!(await insertBlock(tx, blockerId, blockedId))) return then;
      for (const hook of this.hooks) {
        const after = await hook(tx, blockerId, blockedId);
        if (after) then.push(after);
      }
      return then;
    });
    for (const after of afterCommit) await after();
  }

  unblock(blockerId: number, blockedId: number): Promise<void> {
    return deleteBlock(this.db, blockerId, blockedId);
  }

  /** Who blocked whom between two profiles, in one look-up. */
  async between(a: number, b: number): Promise<{ aBlockedB: boolean; bBlockedA: boolean }> {
    const blockers = await blockersBetween(this.db, a, b);
    return { aBlockedB: blockers.includes(a), bBlockedA: blockers.includes(b) };
  }

  /** The members `blockerId` blocked, most recent first. */
  listBlocked(blockerId: number): Promise<{ profileId: number; blockedAt: Date }[]> {
    return blockedBy(this.db, blockerId);
  }

  /**
   * The blocks' part of the data export (issue #27): the members this member blocked, and when. Who
   * blocked them is the other members' own choice, and stays theirs.
   */
  async exportFor({ profileId }: ExportSubject): Promise<ExportPart> {
    if (profileId === null) return { json: {} };
    const rows = await blockedBy(this.db, profileId);
    return {
      json: { blocks: rows.map((row) => ({ blocked_profile_id: row.profileId, blocked_at: isoOrNull(row.blockedAt) })) },
    };
  }

  /**
   * The profiles with a block either way with `profileId` (whom they blocked and who blocked them), to
   * leave out of lists. Most members have none, and then the lists need no condition at all.
   */
  blockedWith(profileId: number): Promise<number[]> {
    return blockedEitherWay(this.db, profileId);
  }
}
