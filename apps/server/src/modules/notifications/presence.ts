import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import type { PresenceSignal } from "../../platform/http/ws.ts";
import { presenceShownCondition } from "../accounts/index.ts";
import { memberPresence } from "./schema.ts";

/** How long a sign of the member's presence counts: a visible tab's socket pings well within it. */
export const LOOKING_TTL_MS = 120_000;
/**
 * Pings extend a presence only this long after the member's last own sign: a tab hidden without its
 * beacon (lost), or one that reconnected while hidden, counts as away after it.
 */
export const SEEN_WINDOW_MS = 10 * 60_000;
/** A node writes one member's presence at most this often for pings and frames (connects always write). */
const REFRESH_EVERY_MS = 30_000;

/**
 * "Online now" as a condition on a user id column, for lists (the search's online filter and order,
 * issue #29): a presence that still holds (a live, visible socket or page, see `Presence`) of a member who
 * lets others see it (not invisible, not hiding their online status: accounts' presenceShownCondition).
 * The ONE place the rule lives. `now` for tests with a clock; lists use the database's now().
 */
export function onlineCondition(userId: SQL, now?: Date): SQL<boolean> {
  const at = now ? sql`${now.toISOString()}::timestamptz` : sql`now()`;
  return sql<boolean>`(exists (select 1 from ${memberPresence} as "presence" where "presence"."user_id" = ${userId} and "presence"."looking_until" > ${at}) and ${presenceShownCondition(userId)})`;
}

/**
 * Whether a member is looking at the site now (README "Away or here"), kept in `member_presence` so that
 * every node sees what any node was told. Set ahead by LOOKING_TTL_MS on a socket connect, a frame of the
 * member's own (typing, a send) and a poll of a visible page; the client's timer frames (ping, and the
 * resume that follows it), which run in a hidden tab too, only extend a presence that still holds and
 * whose last own sign is within SEEN_WINDOW_MS; the page-hidden beacon and the member's last socket on
 * a node closing end it.
 */
export class Presence {
  private readonly written = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The member shows themself (a connect, an action, a visible page's poll). */
  async here(userId: number): Promise<void> {
    const now = this.clock();
    const until = new Date(now.getTime() + LOOKING_TTL_MS);
    this.written.set(userId, now.getTime());
    await this.db
      .insert(memberPresence)
      .values({ userId, lookingUntil: until, seenAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: memberPresence.userId, set: { lookingUntil: until, seenAt: now, updatedAt: now } });
  }

  /** A timer's frame: extends a presence that holds and was shown lately, never revives one a page-hidden ended. */
  async stillHere(userId: number): Promise<void> {
    const now = this.clock();
    this.written.set(userId, now.getTime());
    await this.db
      .update(memberPresence)
      .set({ lookingUntil: new Date(now.getTime() + LOOKING_TTL_MS), updatedAt: now })
      .where(
        and(
          eq(memberPresence.userId, userId),
          gt(memberPresence.lookingUntil, now),
          gt(memberPresence.seenAt, new Date(now.getTime() - SEEN_WINDOW_MS)),
        ),
      );
  }

  /** The page was hidden or the member's sockets closed: away from now on. */
  async away(userId: number): Promise<void> {
    this.written.delete(userId);
    await this.db
      .update(memberPresence)
      .set({ lookingUntil: null, updatedAt: this.clock() })
      .where(eq(memberPresence.userId, userId));
  }

  async isLooking(userId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ looking: sql<boolean>`${memberPresence.lookingUntil} > ${this.clock().toISOString()}::timestamptz` })
      .from(memberPresence)
      .where(eq(memberPresence.userId, userId));
    return row?.looking === true;
  }

  /** The WebSocket hub's signals (WsHub.onPresence); failures are logged, never thrown into the hub. */
  listener(log: { error(obj: object, msg: string): void }): (signal: PresenceSignal) => void {
    const run = (work: Promise<void>) => void work.catch((err: unknown) => log.error({ err }, "presence update failed"));
    return (signal) => {
      if (signal.kind === "connected") return run(this.here(signal.userId));
      if (signal.kind === "closed") return signal.remaining === 0 ? run(this.away(signal.userId)) : undefined;
      const last = this.written.get(signal.userId);
      if (last !== undefined && this.clock().getTime() - last < REFRESH_EVERY_MS) return;
      const timer = signal.frame === "ping" || signal.frame === "resume";
      run(timer ? this.stillHere(signal.userId) : this.here(signal.userId));
    };
  }
}
