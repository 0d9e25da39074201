import { and, type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../platform/db/index.ts";
import { hiddenUserIds, visibleUserCondition } from "../accounts/index.ts";
import { type BlockService, blockedEitherWayCondition, notBlockedByCondition } from "../blocks/index.ts";
import { activeProfileCondition, hiddenProfileIds } from "../profiles/index.ts";

/** Which blocks hide a profile: either way (lists, contact), or only the target's (viewing a profile). */
export type BlockDirection = "either" | "by-target";

/**
 * The one answer to "may member A see or contact member B" (spec §6 and the platform issue): B's
 * account is visible (not invisible, not pending deletion), B's profile is active, and there is no block
 * between them. Every module that shows or contacts members asks here, as a condition inside its own
 * query (no table of another module is read directly) or as a yes/no for one pair.
 *
 * Blocks: a blocked member never sees the blocker; the blocker may still open the blocked member's
 * profile (to unblock), but neither appears in the other's lists and neither can contact the other.
 */
export class VisibilityPolicy {
  constructor(
    private readonly db: Db,
    private readonly blocks: Pick<BlockService, "blockedWith">,
  ) {}

  /** A condition on a user id column: that member's account is visible to others. */
  visibleMember(userId: SQL): SQL {
    return visibleUserCondition(userId);
  }

  /**
   * A condition on a profile id column: the profile is active, its member visible, and (for a member
   * asking) no block hides it from `viewerProfileId` (a member's profile id).
   */
  visibleProfile(profileId: SQL, viewerProfileId: number | null, blocks: BlockDirection = "either"): SQL {
    const active = activeProfileCondition(profileId, (userId) => this.visibleMember(userId));
    if (!viewerProfileId) return active;
    const unblocked =
      blocks === "either"
        ? blockedEitherWayCondition(profileId, viewerProfileId, false)
        : notBlockedByCondition(profileId, viewerProfileId);
    return and(active, unblocked) as SQL;
  }

  /**
   * A condition on a profile id column for lists: no block either way between that profile and
   * `viewerProfileId` (true for visitors), as anti-joins inside the list's own statement.
   */
  unblocked(profileId: SQL, viewerProfileId: number | null | undefined): SQL {
    return viewerProfileId ? blockedEitherWayCondition(profileId, viewerProfileId, false) : sql`true`;
  }

  /**
   * The same answer as `visibleProfile(profileId, viewerProfileId, "either")`, for counting a long list
   * keyed by profile ids (the likes overview's counts): the profile is not among the few hidden ones
   * (collected once and hashed by PostgreSQL, where a look-up per row cost 25 ms for 5,000 likes), and no
   * block either way. `profileId` must be a NOT NULL column (`not in`).
   */
  visibleAmong(profileId: SQL, viewerProfileId: number): SQL {
    return sql`${profileId} not in (${hiddenProfileIds(hiddenUserIds())}) and ${this.unblocked(profileId, viewerProfileId)}`;
  }

  /**
   * The same answer as `visibleProfile(profileId, viewerProfileId, "either")`, for a long list keyed by
   * profile ids that is read in an index's order and paged (the likes overview): a lateral from-item that
   * checks each row through the profile's primary key and the small users_hidden index, so the planner
   * cannot trade it for a hash of every profile (a semi-join: tens of ms at 100k profiles, decision 019),
   * and a page stops after its rows. `join` goes after the list's FROM item, `where` into its WHERE;
   * `alias` names the from-item (unique within the statement).
   */
  eachVisible(profileId: SQL, viewerProfileId: number, alias: string): { join: SQL; where: SQL } {
    const name = sql.identifier(alias);
    return {
      join: sql`cross join lateral (select ${this.visibleProfile(profileId, null)} as "ok" offset 0) as ${name}`,
      where: sql`${name}."ok" and ${this.unblocked(profileId, viewerProfileId)}`,
    };
  }

  /**
   * Profiles to leave out of `viewerProfileId`'s lists because of a block either way. Most members have
   * none, and then lists need no block condition at all (measured in bench:search).
   */
  hiddenFrom(viewerProfileId: number | null | undefined): Promise<number[]> {
    return viewerProfileId ? this.blocks.blockedWith(viewerProfileId) : Promise.resolve([]);
  }

  /** Whether `viewerProfileId` (null: a visitor) may see profile `profileId`. */
  async canSee(viewerProfileId: number | null, profileId: number, blocks: BlockDirection = "by-target"): Promise<boolean> {
    if (viewerProfileId === profileId) return true;
    const [row] = await rowsOf<{ ok: boolean }>(
      this.db,
      sql`select ${this.visibleProfile(sql`${profileId}::int`, viewerProfileId, blocks)} as ok`,
    );
    return row?.ok === true;
  }

  /**
   * Whether `viewerProfileId` may contact (like, message, gift) `profileId`: visible, no block either
   * way, never oneself. Through `visibility_may_contact` (migration 0022), the rule the chat send checks
   * under its locks; visibility.test.ts holds it equal to `visibleProfile(..., "either")`.
   */
  async canContact(viewerProfileId: number, profileId: number): Promise<boolean> {
    const [row] = await rowsOf<{ ok: boolean }>(
      this.db,
      sql`select visibility_may_contact(${viewerProfileId}::int, ${profileId}::int) as "ok"`,
    );
    return row?.ok === true;
  }
}
