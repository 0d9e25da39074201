import { type MemberEvent, memberEventSchema, RESUME_LIMIT } from "@app/contract";
import { and, asc, eq, gt, lt, lte, sql } from "drizzle-orm";
import type { Bus } from "./bus.ts";
import { type Db, type DbOrTx, rowsOf } from "./db/index.ts";
import { memberEventSeqs, memberEvents } from "./member-events.schema.ts";

/** What travels on a member's bus channel. */
export interface MemberEventMessage {
  seq: number | null;
  event: MemberEvent;
}

/** A recorded event that still has to be sent (after its transaction commits). */
export interface PendingDelivery {
  userId: number;
  message: MemberEventMessage;
}

/** How long events are kept for clients that reconnect. */
export const MEMBER_EVENT_RETENTION_MS = 24 * 3_600_000;

/**
 * Typed events for one member, delivered to all their sockets on every node through the bus (the
 * WebSocket hub subscribes to the channel of each member connected to it).
 *
 * Durable events get the member's next sequence number and are stored in the transaction of the
 * change they announce (`record`), then sent once it has committed (`deliver`): a rolled-back change
 * announces nothing, and a client that missed a message (asleep, reconnecting, a lost pub/sub message)
 * asks for everything after the last `seq` it saw (`since`). Ephemeral events (typing) are sent only.
 */
export class MemberEvents {
  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
  ) {}

  /** The bus channel of one member's events. */
  static channel(userId: number): string {
    return `member:${userId}`;
  }

  /**
   * Stores a durable event inside `tx` with the member's next sequence number (`member_events_record`,
   * migration 0024: the one way an event is numbered and stored, which the chat send's function calls
   * too); send it after commit.
   */
  async record(tx: DbOrTx, userId: number, event: MemberEvent): Promise<PendingDelivery> {
    const parsed = memberEventSchema.parse(event);
    const [row] = await rowsOf<{ seq: number | string }>(
      tx,
      sql`select member_events_record(${userId}::int, ${JSON.stringify(parsed)}::jsonb) as "seq"`,
    );
    const seq = Number(row?.seq);
    return { userId, message: { seq, event: parsed } };
  }

  /**
   * Records events for several members in one transaction, in ascending user id order whatever order
   * they are listed in (each member's own events keep theirs): the members' sequence rows are then
   * locked in one order, so two sends between the same members, or a ring of three (A→B, B→C, C→A at
   * once), wait for each other instead of deadlocking, which PostgreSQL would end by failing one.
   */
  async recordAll(tx: DbOrTx, entries: ReadonlyArray<{ userId: number; event: MemberEvent }>): Promise<PendingDelivery[]> {
    const pending: PendingDelivery[] = [];
    for (const { userId, event } of [...entries].sort((x, y) => x.userId - y.userId))
      pending.push(await this.record(tx, userId, event));
    return pending;
  }

  /**
   * Sends recorded events (call after their transaction committed). Never fails: the change is
   * committed, and an event whose publish failed is found by `since` (issue #25: a bus failure must not
   * turn a committed write into an error; the bus reports its own failures).
   */
  async deliver(...deliveries: PendingDelivery[]): Promise<void> {
    await Promise.allSettled(deliveries.map((d) => this.bus.publish(MemberEvents.channel(d.userId), d.message)));
  }

  /** Records and sends one durable event on its own. */
  async publish(userId: number, event: MemberEvent): Promise<void> {
    const pending = await this.db.transaction((tx) => this.record(tx, userId, event));
    await this.deliver(pending);
  }

  /** Sends an event that is not kept (typing): whoever is connected now gets it, nobody later. */
  async publishEphemeral(userId: number, event: MemberEvent): Promise<void> {
    await this.bus.publish(MemberEvents.channel(userId), { seq: null, event: memberEventSchema.parse(event) });
  }

  /** The member's latest sequence number (0 before any event). */
  async latest(userId: number): Promise<number> {
    const [row] = await this.db
      .select({ seq: memberEventSeqs.seq })
      .from(memberEventSeqs)
      .where(eq(memberEventSeqs.userId, userId));
    return row?.seq ?? 0;
  }

  /**
   * The member's events after `after` up to the latest, oldest first; `complete` is false when some are
   * gone (pruned, or more than RESUME_LIMIT): the client then reloads instead of replaying. Events
   * committed after `latest` was read are left out: they reach the (already subscribed) socket live,
   * and counting them here made a busy member's resume look incomplete (a needless resync).
   */
  async since(userId: number, after: number): Promise<{ events: MemberEventMessage[]; complete: boolean; latest: number }> {
    const latest = await this.latest(userId);
    if (after >= latest) return { events: [], complete: true, latest };
    const rows = await this.db
      .select({ seq: memberEvents.seq, event: memberEvents.event })
      .from(memberEvents)
      .where(and(eq(memberEvents.userId, userId), gt(memberEvents.seq, after), lte(memberEvents.seq, latest)))
      .orderBy(asc(memberEvents.seq))
      .limit(RESUME_LIMIT);
    const events = rows.flatMap((row) => {
      const event = memberEventSchema.safeParse(row.event);
      return event.success ? [{ seq: row.seq, event: event.data }] : [];
    });
    const complete = events[0]?.seq === after + 1 && events.length === latest - after;
    return { events, complete, latest };
  }

  /** Deletes events older than the retention; the app schedules it daily. Returns how many. */
  async prune(now = new Date()): Promise<number> {
    const deleted = await this.db
      .delete(memberEvents)
      .where(lt(memberEvents.createdAt, new Date(now.getTime() - MEMBER_EVENT_RETENTION_MS)))
      .returning({ seq: memberEvents.seq });
    return deleted.length;
  }
}
