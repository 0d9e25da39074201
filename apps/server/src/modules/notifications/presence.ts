import { createHash } from "node:crypto";
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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How often the demo site's rotation writes the fictional profiles' presence (demoPresenceAt). */
export const DEMO_ROTATION_EVERY_MS = 5 * MINUTE;

/**
 * The habits of fictional profiles on a demo site (issue #29): a share of them, each coming back every
 * `periodMs` for `sessionMs`. About 5% are online at any moment, most were active today or this week,
 * some not for weeks, as on a real site.
 */
const RARE_HABIT = { upTo: 1, periodMs: 30 * DAY, sessionMs: 30 * MINUTE };
const DEMO_HABITS = [
  { upTo: 0.35, periodMs: 6 * HOUR, sessionMs: 45 * MINUTE },
  { upTo: 0.7, periodMs: DAY, sessionMs: 30 * MINUTE },
  { upTo: 0.9, periodMs: 4 * DAY, sessionMs: 30 * MINUTE },
  RARE_HABIT,
];

/** A number in [0, 1) fixed for `userId` and `salt`. */
function unitOf(userId: number, salt: string): number {
  return createHash("sha256").update(`${salt}:${userId}`).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * A fictional member's presence at `now` on a demo site: a fixed habit and phase drawn from the user id
 * (a deterministic rotation, no state), its latest session ending at most `now`. Online during a session
 * (`lookingUntil` its end), else last seen at the end of the one before. The same answer on every node
 * and after any restart, and true at any time, not only when the seed ran.
 */
export function demoPresenceAt(userId: number, now: number): { lookingUntil: Date | null; seenAt: Date } {
  const draw = unitOf(userId, "habit");
  const habit = DEMO_HABITS.find((h) => draw < h.upTo) ?? RARE_HABIT;
  const phase = Math.floor(unitOf(userId, "phase") * habit.periodMs);
  const start = now - ((((now - phase) % habit.periodMs) + habit.periodMs) % habit.periodMs);
  const end = start + habit.sessionMs;
  if (end > now) return { lookingUntil: new Date(end), seenAt: new Date(now) };
  return { lookingUntil: null, seenAt: new Date(end) };
}

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

  /**
   * Issue #29, a demo site that feels online: writes the fictional members' presence as demoPresenceAt
   * has it now (a periodic job of the app, on a seeded site only). The labels and the online filter then
   * treat them as anyone: an invisible or presence-hiding fictional member still shows none.
   */
  async rotateDemo(userIds: readonly number[]): Promise<void> {
    const now = this.clock();
    for (let i = 0; i < userIds.length; i += 1000) {
      const rows = userIds
        .slice(i, i + 1000)
        .map((userId) => ({ userId, ...demoPresenceAt(userId, now.getTime()), updatedAt: now }));
      if (rows.length === 0) continue;
      await this.db
        .insert(memberPresence)
        .values(rows)
        .onConflictDoUpdate({
          target: memberPresence.userId,
          set: {
            lookingUntil: sql`excluded.looking_until`,
            seenAt: sql`excluded.seen_at`,
            updatedAt: sql`excluded.updated_at`,
          },
        });
    }
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
