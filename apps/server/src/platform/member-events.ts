import { type MemberEvent, memberEventSchema, RESUME_LIMIT } from "@app/contract";
import { and, asc, eq, gt, lt, lte, type SQL, sql } from "drizzle-orm";
import type { Bus } from "./bus.ts";
import type { Db, DbOrTx } from "./db/index.ts";
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

/** Events to record as part of another statement (MemberEvents.recordLent). */
export interface LentRecord {
  /** The CTEs that number and store the events. */
  ctes: SQL;
  /** A JSON array of [user id, seq] of what was stored, for the statement's select list. */
  numbers: SQL;
  /** The stored events to send after commit, from the statement's `numbers` answer. */
  deliveries(numbers: unknown): PendingDelivery[];
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

  /** Stores a durable event inside `tx` with the member's next sequence number; send it after commit. */
  async record(tx: DbOrTx, userId: number, event: MemberEvent): Promise<PendingDelivery> {
    const parsed = memberEventSchema.parse(event);
    const [row] = await tx
      .insert(memberEventSeqs)
      .values({ userId, seq: 1 })
      .onConflictDoUpdate({ target: memberEventSeqs.userId, set: { seq: sql`${memberEventSeqs.seq} + 1` } })
      .returning({ seq: memberEventSeqs.seq });
    const seq = row?.seq ?? 1;
    await tx.insert(memberEvents).values({ userId, seq, event: parsed });
    return { userId, message: { seq, event: parsed } };
  }

  /**
   * Records events for several members in one transaction, taking their sequence rows in ascending user
   * id order whatever order they are listed in (each member's own events keep theirs): two sends between
   * the same members, or a ring of three (A→B, B→C, C→A at once), then wait for each other instead of
   * deadlocking, which PostgreSQL would end by failing one of them.
   */
  async recordAll(tx: DbOrTx, entries: ReadonlyArray<{ userId: number; event: MemberEvent }>): Promise<PendingDelivery[]> {
    const lent = this.recordLent(entries);
    if (!lent) return [];
    const result = await tx.execute(sql`with ${lent.ctes} select ${lent.numbers} as "numbers"`);
    return lent.deliveries((result as unknown as { rows: { numbers: unknown }[] }).rows[0]?.numbers);
  }

  /**
   * recordAll as lent CTEs (`event_seqs_bumped`, `events_written`) for a statement that also writes the
   * change the events announce (a chat send: the debit, the message and its events in one round trip).
   * Nothing is recorded unless `when` holds (the change's own condition, e.g. "the message was written").
   * The statement selects `numbers`; `deliveries` turns that answer into what to send after commit.
   * Null for no entries. Same lock order as recordAll.
   */
  recordLent(entries: ReadonlyArray<{ userId: number; event: MemberEvent }>, when: SQL = sql`true`): LentRecord | null {
    const byUser = new Map<number, MemberEvent[]>();
    for (const { userId, event } of entries) {
      const events = byUser.get(userId) ?? [];
      events.push(memberEventSchema.parse(event));
      byUser.set(userId, events);
    }
    const users = [...byUser.keys()].sort((x, y) => x - y);
    if (users.length === 0) return null;
    const eventsOf = (userId: number) => byUser.get(userId) ?? [];
    // The members' sequence rows bumped in user id order (a multi-row upsert takes them in the order of
    // its rows), then the event rows numbered from them.
    const bumps = sql.join(
      users.map((userId) => sql`(${userId}::int, ${eventsOf(userId).length}::bigint)`),
      sql`, `,
    );
    const rows = sql.join(
      users.flatMap((userId) =>
        eventsOf(userId).map(
          (event, ord) => sql`(${userId}::int, ${ord}::int, ${eventsOf(userId).length}::int, ${JSON.stringify(event)}::jsonb)`,
        ),
      ),
      sql`, `,
    );
    return {
      ctes: sql`"event_seqs_bumped" as (
            insert into ${memberEventSeqs} ("user_id", "seq")
            select "v"."user_id", "v"."n" from (values ${bumps}) as "v"("user_id", "n") where ${when}
            on conflict ("user_id") do update set "seq" = ${memberEventSeqs}."seq" + excluded."seq"
            returning "user_id", "seq"
          ), "events_written" as (
            insert into ${memberEvents} ("user_id", "seq", "event")
            select e."user_id", b."seq" - e."n" + 1 + e."ord", e."event"
            from (values ${rows}) as e("user_id", "ord", "n", "event") join "event_seqs_bumped" b on b."user_id" = e."user_id"
            returning "user_id", "seq"
          )`,
      numbers: sql`(select coalesce(json_agg(json_build_array("user_id", "seq")), '[]'::json) from "events_written")`,
      deliveries: (answer) => {
        // A member's numbers follow the order of their events.
        const numbers = new Map<number, number[]>();
        for (const [userId, seq] of (answer ?? []) as [number, number | string][]) {
          const list = numbers.get(Number(userId)) ?? [];
          list.push(Number(seq));
          numbers.set(Number(userId), list);
        }
        const pending: PendingDelivery[] = [];
        for (const userId of users) {
          const seqs = (numbers.get(userId) ?? []).sort((x, y) => x - y);
          eventsOf(userId).forEach((event, i) => {
            const seq = seqs[i];
            if (seq === undefined) throw new Error("member event not numbered");
            pending.push({ userId, message: { seq, event } });
          });
        }
        return pending;
      },
    };
  }

  /**
   * recordLent for a statement whose members and events are SQL expressions (a statement compiled once,
   * or a server-side function's variables): entries whose user id is null are skipped, and PostgreSQL
   * takes the sequence rows in user id order (the same lock order as recordAll). The statement selects
   * `numbers` (a JSON array of [user id, seq], each member's in the order of their entries); the caller
   * pairs them with its events to deliver after commit. Nothing is recorded unless `when` holds.
   */
  recordLentExpressions(entries: ReadonlyArray<{ userId: SQL; event: SQL }>, when: SQL): { ctes: SQL; numbers: SQL } {
    const rows = sql.join(
      entries.map((entry, ord) => sql`(${entry.userId}::int, ${ord}::int, (${entry.event})::jsonb)`),
      sql`, `,
    );
    return {
      ctes: sql`"event_entries" as (
            select "user_id", "event", row_number() over (partition by "user_id" order by "ord") - 1 as "ord",
                   count(*) over (partition by "user_id") as "n"
            from (values ${rows}) as e("user_id", "ord", "event") where "user_id" is not null and ${when}
          ), "event_seqs_bumped" as (
            insert into ${memberEventSeqs} ("user_id", "seq")
            select "user_id", count(*) from "event_entries" group by "user_id" order by "user_id"
            on conflict ("user_id") do update set "seq" = ${memberEventSeqs}."seq" + excluded."seq"
            returning "user_id", "seq"
          ), "events_written" as (
            insert into ${memberEvents} ("user_id", "seq", "event")
            select e."user_id", b."seq" - e."n" + 1 + e."ord", e."event"
            from "event_entries" e join "event_seqs_bumped" b on b."user_id" = e."user_id"
            order by e."user_id", e."ord"
            returning "user_id", "seq"
          )`,
      numbers: sql`(select coalesce(json_agg(json_build_array("user_id", "seq") order by "user_id", "seq"), '[]'::json) from "events_written")`,
    };
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
