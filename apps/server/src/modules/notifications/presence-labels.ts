import type { MemberContext, PresenceLabel } from "@app/contract";
import { type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../platform/db/index.ts";
import { presenceShownCondition } from "../accounts/index.ts";
import { memberPresence } from "./schema.ts";

const HOUR = 3_600_000;
/** "active today": a sign of the member within the last 24 hours (not the calendar day: no time zone needed). */
export const ACTIVE_TODAY_MS = 24 * HOUR;
/** "active this week": within the last 7 days. */
export const ACTIVE_WEEK_MS = 7 * 24 * HOUR;

/** The search's "online now" condition (presence.ts), under the name this module's callers know. */
export { onlineCondition as onlineNowCondition } from "./presence.ts";
/**
 * Issue #29: presence labels of profiles ("online", "active today", "active this week"; never a time).
 * Online is member_presence's looking_until (README "Away or here"); the last activity is its seen_at, the
 * member's last own sign (a socket connect, an action, a visible page's poll). Hidden both ways: a member
 * who is invisible or hides their presence shows none, and sees none.
 */
export class PresenceLabels {
  constructor(
    private readonly db: Db,
    /** The profiles module's lent SQL: the member (user id) of a profile id column. */
    private readonly userIdOf: (profileId: SQL) => SQL,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * The label of the member in the `userId` column as `asker` may see it, as a column for a list's own
   * statement (the search reads it with its page: no round trip of its own); null when the asker sees none
   * (a visitor, an invisible or hiding asker).
   */
  labelOf(asker: Pick<MemberContext, "invisible" | "hidePresence"> | null, userId: SQL): SQL<PresenceLabel> | null {
    if (!asker || asker.invisible || asker.hidePresence) return null;
    const now = this.clock().getTime();
    const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
    return sql<PresenceLabel>`(select case
        when "mp"."looking_until" > ${at(now)} then 'online'
        when "mp"."seen_at" > ${at(now - ACTIVE_TODAY_MS)} then 'today'
        when "mp"."seen_at" > ${at(now - ACTIVE_WEEK_MS)} then 'week' end
      from ${memberPresence} as "mp" where "mp"."user_id" = ${userId} and ${presenceShownCondition(sql`"mp"."user_id"`)})`;
  }

  /** The labels of `profileIds` as `asker` may see them (none for visitors or a hiding asker); absent = null. */
  async of(
    asker: Pick<MemberContext, "invisible" | "hidePresence"> | null,
    profileIds: readonly number[],
  ): Promise<Map<number, PresenceLabel>> {
    const labels = new Map<number, PresenceLabel>();
    const label = this.labelOf(asker, this.userIdOf(sql`"p"."id"`));
    if (!label || profileIds.length === 0) return labels;
    const rows = await rowsOf<{ id: number; label: PresenceLabel }>(
      this.db,
      sql`select "p"."id", ${label} as "label" from unnest(${sql.param([...profileIds])}::int[]) as "p"("id")`,
    );
    for (const row of rows) if (row.label) labels.set(Number(row.id), row.label);
    return labels;
  }

  /** `cards` with their `presence` label filled in (null where none shows). */
  async label<T extends { id: number }>(
    asker: Pick<MemberContext, "invisible" | "hidePresence"> | null,
    cards: readonly T[],
  ): Promise<(T & { presence: PresenceLabel })[]> {
    const labels = await this.of(
      asker,
      cards.map((card) => card.id),
    );
    return cards.map((card) => ({ ...card, presence: labels.get(card.id) ?? null }));
  }
}
