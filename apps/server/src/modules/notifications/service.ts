import {
  type DisabledNotification,
  isLocaleCode,
  type LocaleCode,
  type MemberEvent,
  memberEventSchema,
  NOTIFICATION_CATEGORIES,
  type NotificationCategory,
  nameValues,
  type PushPayload,
  type Settings,
} from "@app/contract";
import { and, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, type DbOrTx, rowsOf } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { t } from "../../platform/i18n.ts";
import type { EnqueueOptions, JobRef, JobRunner } from "../../platform/jobs.ts";
import type { Mailer } from "../../platform/mailer.ts";
import type { AccountService } from "../accounts/index.ts";
import type { ChatService } from "../chat/index.ts";
import type { LikeService } from "../likes/index.ts";
import type { ProfileService } from "../profiles/index.ts";
import type { SearchService } from "../search/service.ts";
import { type NotificationTemplate, notificationEmail } from "./emails.ts";
import type { Presence } from "./presence.ts";
import { memberPresence, notificationQueue, notifications } from "./schema.ts";
import type { UnsubscribeTokens } from "./tokens.ts";

/**
 * What the notifications module needs of web push (modules/push): how many of the member's devices
 * accepted a payload, and whether the member has any. The app passes the push module's PushService.
 */
export interface PushSender {
  /**
   * Sends to the member's devices; `key` names this push, so that a run again after a partial failure
   * reaches only the devices that did not take it. Answers how many devices took it; throws to be retried.
   */
  send(userId: number, payload: PushPayload, key: string): Promise<number>;
  hasDevices(userId: number): Promise<boolean>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The module's numbers (README). */
export const NOTIFY_RULES = {
  /** Queue rows one drain decides on at once, and how long it holds them. */
  drainBatch: 200,
  drainLeaseMs: 2 * MINUTE,
  /** After a push, the e-mail follows this much later if the message is still unread and the push unclicked. */
  pushFallbackMs: 15 * MINUTE,
  /** Later messages of a conversation: at most one e-mail per conversation per quiet period. */
  quietMs: 10 * MINUTE,
  /** Likes without push: one e-mail per hour with the count. */
  likesBatchMs: HOUR,
  /** Notification e-mails one member gets per hour at most; more wait for the next hour. */
  mailsPerHour: 6,
  /** Unread-message reminders: messages unread this long. */
  unreadAfterMs: DAY,
  /** Reminders: members not seen for this long (once per absence). */
  inactiveAfterMs: 14 * DAY,
  /** Sent notifications are kept this long (longer than any job's retries and the reminders' batches). */
  keepMs: 60 * DAY,
  /** Members a periodic job reads per page. */
  pageSize: 500,
} as const;

/** An e-mail job: what to tell the member (the job decides again when it runs: read, clicked, switched off). */
const emailJobSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("conversation"),
    userId: z.number().int(),
    conversationId: z.number().int(),
    category: z.enum(["new_conversations", "new_messages"]),
    /** Set when a push went first: no e-mail if a push for this conversation was clicked since. */
    pushedAt: z.string().optional(),
  }),
  z.object({ kind: z.literal("likes"), userId: z.number().int() }),
  z.object({ kind: z.literal("match"), userId: z.number().int(), profileId: z.number().int() }),
  z.object({ kind: z.literal("unread_reminder"), userId: z.number().int(), unread: z.number().int(), batch: z.number().int() }),
  z.object({ kind: z.literal("weekly"), userId: z.number().int(), week: z.number().int() }),
  z.object({ kind: z.literal("inactive"), userId: z.number().int(), lastSeen: z.string() }),
  z.object({
    kind: z.literal("broadcast"),
    userId: z.number().int(),
    category: z.enum(["news", "promotions"]),
    id: z.string().max(100),
    title: z.string().max(200),
    text: z.string().max(5000),
    path: z.string().startsWith("/").max(500),
  }),
]);
export type EmailJob = z.infer<typeof emailJobSchema>;

const pushJobSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("message"),
    userId: z.number().int(),
    conversationId: z.number().int(),
    messageId: z.number().int(),
  }),
  z.object({ kind: z.literal("like"), userId: z.number().int(), profileId: z.number().int() }),
  z.object({ kind: z.literal("match"), userId: z.number().int(), profileId: z.number().int() }),
]);
export type PushJob = z.infer<typeof pushJobSchema>;

interface Recipient {
  userId: number;
  profileId: number;
  email: string | null;
  locale: LocaleCode;
  name: string;
  disabled: DisabledNotification[];
}

/** An e-mail may go out unless the category is off for any reason; a push unless the member switched it off. */
const emailAllowed = (r: Pick<Recipient, "email" | "disabled">, category: NotificationCategory) =>
  !!r.email && !r.disabled.some((d) => d.category === category);
const pushAllowed = (r: Pick<Recipient, "disabled">, category: NotificationCategory) =>
  !r.disabled.some((d) => d.category === category && d.reason === "user");

/** The advisory lock class of the per-member e-mail limit (with the user id as the second key). */
const RATE_LOCK = 7_201_028;

interface Claim {
  userId: number;
  kind: string;
  channel: "push" | "email";
  key: string;
  subject?: number | undefined;
  jobId: number;
}

interface Planned {
  job: JobRef<EmailJob> | JobRef<PushJob>;
  payload: EmailJob | PushJob;
  options: EnqueueOptions;
}

export interface NotificationDeps {
  db: Db;
  jobs: JobRunner;
  mailer: Mailer;
  push: PushSender;
  presence: Pick<Presence, "isLooking" | "away">;
  tokens: UnsubscribeTokens;
  accounts: Pick<
    AccountService,
    "findUser" | "findByEmail" | "turnOffNotifications" | "disabledNotifications" | "notificationRecipients"
  >;
  profiles: Pick<ProfileService, "profileIdOfMember" | "membersOf" | "nameOf">;
  chat: Pick<ChatService, "notice" | "staleUnread">;
  likes: Pick<LikeService, "newLikes">;
  search: Pick<SearchService, "matchFinder">;
  site: {
    name(): Promise<string>;
    origin(): Promise<string>;
    settings(locale: LocaleCode): Promise<Pick<Settings, "countries" | "visible_profile_fields">>;
  };
  clock?: () => Date;
  log: { error(obj: object, msg: string): void };
}

/**
 * Notifications (issue #28; README.md): turns queued member events into push and e-mail jobs for members
 * who are away, sends them once (the `notifications` table's unique key), and runs the periodic e-mails
 * (unread reminders, weekly updates, inactivity reminders) and broadcasts (news, promotions).
 */
export class NotificationService {
  readonly drainJob: JobRef<undefined>;
  readonly emailJob: JobRef<EmailJob>;
  readonly pushJob: JobRef<PushJob>;
  readonly remindersJob: JobRef<undefined>;
  readonly weeklyJob: JobRef<undefined>;
  readonly inactiveJob: JobRef<undefined>;
  readonly pruneJob: JobRef<undefined>;
  private readonly clock: () => Date;
  private push: PushSender;

  constructor(private readonly deps: NotificationDeps) {
    this.clock = deps.clock ?? (() => new Date());
    this.push = deps.push;
    const { jobs } = deps;
    this.drainJob = jobs.define("notifications.drain", async () => void (await this.drainAll()), { maxAttempts: 3 });
    this.emailJob = jobs.define<EmailJob>("notifications.email", (payload, context) => this.sendEmail(payload, context.id), {
      payload: emailJobSchema,
      maxAttempts: 8,
      backoffMs: MINUTE,
    });
    this.pushJob = jobs.define<PushJob>("notifications.push", (payload, context) => this.sendPush(payload, context.id), {
      payload: pushJobSchema,
      maxAttempts: 5,
      backoffMs: 30_000,
    });
    this.remindersJob = jobs.define("notifications.unread-reminders", () => this.planUnreadReminders(), { maxAttempts: 3 });
    this.weeklyJob = jobs.define("notifications.weekly", () => this.planWeekly(), { maxAttempts: 3 });
    this.inactiveJob = jobs.define("notifications.inactive", () => this.planInactive(), { maxAttempts: 3 });
    this.pruneJob = jobs.define("notifications.prune", async () => void (await this.prune()), { maxAttempts: 3 });
  }

  /** The periodic work: the drain every 5 s, the reminders daily, the weekly updates on Mondays 10:00 UTC. */
  schedule(): void {
    const { jobs } = this.deps;
    jobs.schedule(this.drainJob, { everyMs: 5_000 });
    jobs.schedule(this.remindersJob, { everyMs: DAY, offsetMs: 17 * HOUR });
    jobs.schedule(this.inactiveJob, { everyMs: DAY, offsetMs: 18 * HOUR });
    jobs.schedule(this.pruneJob, { everyMs: DAY, offsetMs: 7 * HOUR });
    // The epoch was a Thursday: +4 days is a Monday.
    jobs.schedule(this.weeklyJob, { everyMs: 7 * DAY, offsetMs: 4 * DAY + 10 * HOUR });
  }

  /** Wires the push module's sender (the app passes one without devices until modules/push is there). */
  usePush(push: PushSender): void {
    this.push = push;
  }

  // The queue

  /**
   * Deletes sent notifications past NOTIFY_RULES.keepMs (their keys guard against a repeat only while a
   * job could still repeat them) and presence rows not touched for a day. Returns the notifications deleted.
   */
  async prune(): Promise<number> {
    const now = this.clock().getTime();
    const { db } = this.deps;
    const deleted = await db
      .delete(notifications)
      .where(lt(notifications.createdAt, new Date(now - NOTIFY_RULES.keepMs)))
      .returning({ id: notifications.id });
    await db.delete(memberPresence).where(lt(memberPresence.updatedAt, new Date(now - DAY)));
    return deleted.length;
  }

  /** An erased account's rows (no foreign keys: the queue is written by the platform's SQL function). */
  readonly onErase = async (userId: number): Promise<void> => {
    const { db } = this.deps;
    await db.delete(notifications).where(eq(notifications.userId, userId));
    await db.delete(notificationQueue).where(eq(notificationQueue.userId, userId));
    await db.delete(memberPresence).where(eq(memberPresence.userId, userId));
  };

  /** Drains the queue until it is empty (one job run). Returns how many events it decided on. */
  async drainAll(): Promise<number> {
    let total = 0;
    for (let n = await this.drain(); n > 0; n = await this.drain()) total += n;
    return total;
  }

  /**
   * One batch: leases queue rows (SKIP LOCKED: two nodes take different rows), decides on each event
   * outside any transaction, then enqueues the jobs and deletes the rows in one transaction. A node that
   * dies in between leaves its lease to run out; the next drain decides again, and the jobs' keys and the
   * notifications' unique keys absorb what was already enqueued or sent.
   */
  async drain(limit: number = NOTIFY_RULES.drainBatch): Promise<number> {
    const now = this.clock();
    const { db } = this.deps;
    const due = db
      .select({ id: notificationQueue.id })
      .from(notificationQueue)
      .where(or(isNull(notificationQueue.claimedUntil), lt(notificationQueue.claimedUntil, now)))
      .orderBy(notificationQueue.id)
      .limit(limit)
      .for("update", { skipLocked: true });
    const claimed = await db
      .update(notificationQueue)
      .set({ claimedUntil: new Date(now.getTime() + NOTIFY_RULES.drainLeaseMs) })
      .where(sql`${notificationQueue.id} = any(array(${due}))`)
      .returning({ id: notificationQueue.id, userId: notificationQueue.userId, seq: notificationQueue.seq });
    if (claimed.length === 0) return 0;
    const events = await rowsOf<{ user_id: number; seq: number | string; event: unknown }>(
      db,
      sql`select "user_id", "seq", "event" from "member_events"
          where ("user_id", "seq") in (${sql.join(
            claimed.map((row) => sql`(${row.userId}::int, ${row.seq}::bigint)`),
            sql`, `,
          )})`,
    );
    const byKey = new Map(events.map((e) => [`${e.user_id}:${Number(e.seq)}`, e.event]));
    const planned: Planned[] = [];
    const decided: number[] = [];
    for (const row of claimed) {
      // An event gone (pruned after a day) or unreadable is dropped; one whose decision fails stays
      // leased and is tried again when the lease has run out (until its event is pruned).
      const event = memberEventSchema.safeParse(byKey.get(`${row.userId}:${row.seq}`));
      try {
        if (event.success) planned.push(...(await this.decide(row.userId, event.data)));
        decided.push(row.id);
      } catch (err) {
        this.deps.log.error({ err, userId: row.userId, seq: row.seq }, "deciding on a notification failed");
      }
    }
    if (decided.length === 0) return claimed.length;
    await db.transaction(async (tx) => {
      for (const { job, payload, options } of planned)
        await this.deps.jobs.enqueue(job as JobRef<EmailJob | PushJob>, payload, options, tx);
      await tx.delete(notificationQueue).where(inArray(notificationQueue.id, decided));
    });
    return claimed.length;
  }

  /**
   * What one event becomes (README "Away or here"): nothing for a fictional or absent account or a member
   * who is looking (the page shows a toast); push first when the member has a device and the category is
   * on, with an e-mail fallback later; otherwise an e-mail, at once for a new conversation or a match,
   * batched for later messages and for likes.
   */
  private async decide(userId: number, event: MemberEvent): Promise<Planned[]> {
    const recipient = await this.recipient(userId);
    if (!recipient || (await this.deps.presence.isLooking(userId))) return [];
    const now = this.clock().getTime();
    const at = (ms: number) => ({ runAt: new Date(now + ms) });
    if (event.type === "chat.message") {
      if (event.message.from_me) return [];
      const notice = await this.deps.chat.notice(recipient.profileId, event.conversation_id, event.message.id);
      if (!notice || notice.unread === 0) return [];
      const category = notice.first ? "new_conversations" : "new_messages";
      const emailKey = `conversation:${userId}:${event.conversation_id}`;
      const email = (extra: Partial<EmailJob>, options: EnqueueOptions): Planned => ({
        job: this.emailJob,
        payload: { kind: "conversation", userId, conversationId: event.conversation_id, category, ...extra } as EmailJob,
        options: { key: emailKey, ...options },
      });
      if (pushAllowed(recipient, category) && (await this.push.hasDevices(userId))) {
        return [
          {
            job: this.pushJob,
            payload: { kind: "message", userId, conversationId: event.conversation_id, messageId: event.message.id },
            options: { key: `message:${userId}:${event.message.id}` },
          },
          ...(emailAllowed(recipient, category)
            ? [email({ pushedAt: new Date(now).toISOString() }, at(NOTIFY_RULES.pushFallbackMs))]
            : []),
        ];
      }
      if (!emailAllowed(recipient, category)) return [];
      return [email({}, notice.first ? {} : at(NOTIFY_RULES.quietMs))];
    }
    if (event.type === "like.received" || event.type === "like.match") {
      const match = event.type === "like.match";
      const profileId = match ? event.profile.id : event.profile_id;
      if (pushAllowed(recipient, "like") && (await this.push.hasDevices(userId))) {
        return [
          {
            job: this.pushJob,
            payload: { kind: match ? "match" : "like", userId, profileId },
            options: { key: match ? `match:${userId}:${profileId}` : `like:${userId}` },
          },
        ];
      }
      if (!emailAllowed(recipient, "like")) return [];
      return match
        ? [
            {
              job: this.emailJob,
              payload: { kind: "match", userId, profileId },
              options: { key: `match:${userId}:${profileId}` },
            },
          ]
        : [
            {
              job: this.emailJob,
              payload: { kind: "likes", userId },
              options: { key: `likes:${userId}`, ...at(NOTIFY_RULES.likesBatchMs) },
            },
          ];
    }
    return [];
  }

  /** A member notifications may go to: an active (confirmed), real, unbanned account with a profile. */
  private async recipient(userId: number): Promise<Recipient | null> {
    const user = await this.deps.accounts.findUser(userId);
    if (!user || user.fictional || user.status !== "active") return null;
    // A banned member cannot log in to see what they are told of.
    if (user.bannedUntil && user.bannedUntil.getTime() > this.clock().getTime()) return null;
    const [profileId, name] = await Promise.all([
      this.deps.profiles.profileIdOfMember(userId),
      this.deps.profiles.nameOf(userId),
    ]);
    if (profileId === null) return null;
    return {
      userId,
      profileId,
      email: user.email,
      locale: isLocaleCode(user.language) ? user.language : "en",
      name: name ?? "",
      disabled: this.deps.accounts.disabledNotifications(user),
    };
  }

  // Sending once

  /**
   * Claims a notification's unique key for this job: a new key, or this same job's own unsent claim (a
   * retry after a crash between claim and send). Null: sent already, or another job has it.
   */
  private async claim(input: Claim, tx: DbOrTx = this.deps.db): Promise<number | null> {
    const [row] = await tx
      .insert(notifications)
      .values({ ...input, subject: input.subject ?? null, createdAt: this.clock() })
      .onConflictDoUpdate({
        target: notifications.key,
        set: { jobId: sql`excluded."job_id"` },
        setWhere: sql`${notifications.sentAt} is null and ${notifications.jobId} = excluded."job_id"`,
      })
      .returning({ id: notifications.id });
    return row?.id ?? null;
  }

  /**
   * An e-mail's claim under the member's hourly limit: counted and claimed while holding the member's
   * advisory lock, so that concurrent jobs (on one node or several) cannot both take the last place.
   * `{ freeAt }`: over the limit, try again then.
   */
  private async claimWithinLimit(input: Claim): Promise<number | null | { freeAt: Date }> {
    return this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${RATE_LOCK}::int, ${input.userId}::int)`);
      const since = new Date(this.clock().getTime() - HOUR);
      const [window] = await tx
        .select({ n: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${notifications.createdAt})` })
        .from(notifications)
        .where(
          and(eq(notifications.userId, input.userId), eq(notifications.channel, "email"), gt(notifications.createdAt, since)),
        );
      if (Number(window?.n ?? 0) >= NOTIFY_RULES.mailsPerHour) {
        const oldest = window?.oldest ? new Date(window.oldest).getTime() : this.clock().getTime();
        return { freeAt: new Date(oldest + HOUR) };
      }
      return this.claim(input, tx);
    });
  }

  /**
   * Sends under a claimed key: marked sent after, the claim given up when sending fails (the job
   * retries). With `limited`, returns when the member's hourly limit has room if it has none now.
   */
  private async once(claim: Claim, send: (notificationId: number) => Promise<boolean>, limited = false): Promise<Date | null> {
    const claimed = limited ? await this.claimWithinLimit(claim) : await this.claim(claim);
    if (claimed === null) return null;
    if (typeof claimed === "object") return claimed.freeAt;
    let sent = false;
    try {
      sent = await send(claimed);
    } finally {
      if (sent) await this.deps.db.update(notifications).set({ sentAt: this.clock() }).where(eq(notifications.id, claimed));
      else await this.deps.db.delete(notifications).where(eq(notifications.id, claimed));
    }
    return null;
  }

  private async sendEmail(job: EmailJob, jobId: number): Promise<void> {
    const recipient = await this.recipient(job.userId);
    if (!recipient?.email) return;
    const built = await this.buildEmail(job, recipient);
    if (!built || !emailAllowed(recipient, built.category)) return;
    const [site, origin] = await Promise.all([this.deps.site.name(), this.deps.site.origin()]);
    const token = await this.deps.tokens.sign(job.userId, built.category);
    const unsubscribe = `${origin}/api/unsubscribe.php?token=${encodeURIComponent(token)}`;
    const message = notificationEmail({
      ...built.template,
      locale: recipient.locale,
      site,
      recipient: recipient.name,
      link: `${origin}${built.path}`,
      settingsUrl: `${origin}/notifications`,
    });
    const wait = await this.once(
      { userId: job.userId, kind: built.kind, channel: "email", key: built.key, subject: built.subject, jobId },
      async () => {
        await this.deps.mailer.send({
          to: recipient.email as string,
          ...message,
          headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
        });
        return true;
      },
      job.kind !== "broadcast",
    );
    // Over the member's hourly limit: the same e-mail waits until the window has room.
    if (wait) await this.deps.jobs.enqueue(this.emailJob, job, { runAt: wait });
  }

  /** What an e-mail job says now (null: nothing left to tell), its category, page and unique key. */
  private async buildEmail(
    job: EmailJob,
    recipient: Recipient,
  ): Promise<{
    template: NotificationTemplate;
    category: NotificationCategory;
    kind: string;
    path: string;
    key: string;
    subject?: number;
  } | null> {
    switch (job.kind) {
      case "conversation": {
        const notice = await this.deps.chat.notice(recipient.profileId, job.conversationId, 0);
        if (!notice || notice.unread === 0 || notice.latestUnread === null) return null;
        if (job.pushedAt && (await this.pushClicked(job.userId, job.conversationId, new Date(job.pushedAt)))) return null;
        const name = (await this.deps.profiles.membersOf([notice.otherId])).get(notice.otherId)?.name ?? "";
        return {
          template: {
            template: job.category === "new_conversations" ? "new_conversation" : "new_messages",
            name,
            count: notice.unread,
          },
          category: job.category,
          kind: "message",
          path: `/members/${notice.otherId}/chat`,
          key: `email:conversation:${job.userId}:${job.conversationId}:${notice.latestUnread}`,
          subject: job.conversationId,
        };
      }
      case "likes": {
        const count = await this.deps.likes.newLikes(recipient.profileId);
        if (count === 0) return null;
        const hour = Math.floor(this.clock().getTime() / HOUR);
        return {
          template: { template: "likes", count },
          category: "like",
          kind: "like",
          path: "/likes",
          key: `email:likes:${job.userId}:${hour}`,
        };
      }
      case "match": {
        const name = (await this.deps.profiles.membersOf([job.profileId])).get(job.profileId)?.name;
        if (name === undefined) return null;
        return {
          template: { template: "match", name },
          category: "like",
          kind: "match",
          path: `/members/${job.profileId}/chat`,
          key: `email:match:${job.userId}:${job.profileId}`,
          subject: job.profileId,
        };
      }
      case "unread_reminder":
        return {
          template: { template: "unread_reminder", count: job.unread },
          category: "unread_message_reminders",
          kind: "unread_reminder",
          path: "/chat",
          key: `email:unread:${job.userId}:${job.batch}`,
        };
      case "weekly": {
        const found = await this.deps.search.matchFinder(job.userId, await this.deps.site.settings(recipient.locale));
        const names = found.profiles.slice(0, 3).map((p) => p.name);
        if (names.length === 0) return null;
        return {
          template: { template: "weekly", count: names.length, names: names.join(", ") },
          category: "weekly_updates",
          kind: "weekly",
          path: "/match-finder",
          key: `email:weekly:${job.userId}:${job.week}`,
        };
      }
      case "inactive":
        return {
          template: { template: "inactive" },
          category: "reminders",
          kind: "inactive",
          path: "/members",
          key: `email:inactive:${job.userId}:${job.lastSeen}`,
        };
      case "broadcast":
        return {
          template: { template: job.category, title: job.title, text: job.text },
          category: job.category,
          kind: job.category,
          path: job.path,
          key: `email:broadcast:${job.id}:${job.userId}`,
        };
    }
  }

  private async pushClicked(userId: number, conversationId: number, since: Date): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, userId),
          eq(notifications.channel, "push"),
          eq(notifications.subject, conversationId),
          isNotNull(notifications.clickedAt),
          gt(notifications.createdAt, new Date(since.getTime() - MINUTE)),
        ),
      )
      .limit(1);
    return !!row;
  }

  private async sendPush(job: PushJob, jobId: number): Promise<void> {
    const recipient = await this.recipient(job.userId);
    if (!recipient) return;
    const m = (id: string, values: Record<string, string | number> = {}) => t(recipient.locale, id, values);
    let payload: Omit<PushPayload, "notification_id">;
    let key: string;
    let subject: number;
    let category: NotificationCategory = "like";
    if (job.kind === "message") {
      const notice = await this.deps.chat.notice(recipient.profileId, job.conversationId, job.messageId);
      if (!notice || notice.unread === 0) return;
      category = notice.first ? "new_conversations" : "new_messages";
      if (!pushAllowed(recipient, category)) return;
      const name = (await this.deps.profiles.membersOf([notice.otherId])).get(notice.otherId)?.name ?? "";
      payload = {
        kind: "message",
        title: m("push.message.title", nameValues(name)),
        body: m("push.message.body", { count: notice.unread }),
        url: `/members/${notice.otherId}/chat`,
        tag: `conversation-${job.conversationId}`,
        conversation_id: job.conversationId,
      };
      key = `push:message:${job.userId}:${job.messageId}`;
      subject = job.conversationId;
    } else if (!pushAllowed(recipient, "like")) {
      return;
    } else if (job.kind === "match") {
      const name = (await this.deps.profiles.membersOf([job.profileId])).get(job.profileId)?.name ?? "";
      payload = {
        kind: "match",
        title: m("push.match.title"),
        body: m("push.match.body", { name }),
        url: `/members/${job.profileId}/chat`,
        tag: `match-${job.profileId}`,
      };
      key = `push:match:${job.userId}:${job.profileId}`;
      subject = job.profileId;
    } else {
      payload = { kind: "like", title: m("push.like.title"), body: m("push.like.body"), url: "/likes", tag: "likes" };
      key = `push:like:${job.userId}:${job.profileId}`;
      subject = job.profileId;
    }
    let unsent = false;
    await this.once({ userId: job.userId, kind: job.kind, channel: "push", key, subject, jobId }, async (id) => {
      const accepted = await this.push.send(job.userId, { ...payload, notification_id: id }, key);
      unsent = accepted === 0;
      return accepted > 0;
    });
    // No device took it (all gone meanwhile): the e-mail goes at once (its own unique key keeps the
    // later fallback of a message from repeating it).
    if (!unsent || !emailAllowed(recipient, category)) return;
    const [email, emailKey]: [EmailJob, string] =
      job.kind === "message"
        ? [
            {
              kind: "conversation",
              userId: job.userId,
              conversationId: job.conversationId,
              category: category as "new_conversations" | "new_messages",
            },
            `conversation-unpushed:${job.userId}:${job.conversationId}`,
          ]
        : job.kind === "match"
          ? [{ kind: "match", userId: job.userId, profileId: job.profileId }, `match:${job.userId}:${job.profileId}`]
          : [{ kind: "likes", userId: job.userId }, `likes:${job.userId}`];
    await this.deps.jobs.enqueue(this.emailJob, email, { key: emailKey });
  }

  /** POST /api/push-click.php: the member's own notification was clicked (no e-mail follows it). */
  async clicked(userId: number, notificationId: number): Promise<void> {
    const [row] = await this.deps.db
      .update(notifications)
      .set({ clickedAt: sql`coalesce(${notifications.clickedAt}, ${this.clock().toISOString()}::timestamptz)` })
      .where(and(eq(notifications.id, notificationId), eq(notifications.userId, userId), eq(notifications.channel, "push")))
      .returning({ id: notifications.id });
    if (!row) throw new AppError("not_found");
  }

  // Periodic e-mails

  /** Daily: members with messages unread for more than a day, once per batch (the newest such message). */
  async planUnreadReminders(): Promise<void> {
    const olderThan = new Date(this.clock().getTime() - NOTIFY_RULES.unreadAfterMs);
    for (let after = 0; ; ) {
      const rows = await this.deps.chat.staleUnread(olderThan, after, NOTIFY_RULES.pageSize);
      if (rows.length === 0) return;
      const members = await this.deps.profiles.membersOf(rows.map((r) => r.profileId));
      for (const row of rows) {
        const member = members.get(row.profileId);
        if (member)
          await this.deps.jobs.enqueue(
            this.emailJob,
            { kind: "unread_reminder", userId: member.userId, unread: row.unread, batch: row.batch },
            { key: `unread:${member.userId}:${row.batch}` },
          );
      }
      after = rows[rows.length - 1]?.profileId ?? after;
    }
  }

  /** Weekly: every member with weekly updates on gets new members near them (if there are any). */
  async planWeekly(): Promise<void> {
    const week = Math.floor(this.clock().getTime() / (7 * DAY));
    await this.forRecipients("weekly_updates", {}, (userId) =>
      this.deps.jobs.enqueue(this.emailJob, { kind: "weekly", userId, week }, { key: `weekly:${userId}:${week}` }),
    );
  }

  /** Daily: members not seen for 14 days, once per absence (the e-mail's key is their last visit). */
  async planInactive(): Promise<void> {
    const inactiveBefore = new Date(this.clock().getTime() - NOTIFY_RULES.inactiveAfterMs);
    await this.forRecipients("reminders", { inactiveBefore }, (userId, lastSeen) =>
      this.deps.jobs.enqueue(
        this.emailJob,
        { kind: "inactive", userId, lastSeen: lastSeen.toISOString() },
        { key: `inactive:${userId}:${lastSeen.toISOString()}` },
      ),
    );
  }

  /**
   * News or a promotion to every member who has the category on (staff's or a script's call; the text is
   * staff's own). Promotions need the member's consent (switching the category on records it). `id` names the broadcast: sending it again reaches nobody twice. Returns the members queued.
   */
  async broadcast(input: {
    category: "news" | "promotions";
    id: string;
    title: string;
    text: string;
    path?: string;
  }): Promise<number> {
    let queued = 0;
    await this.forRecipients(input.category, {}, async (userId) => {
      const id = await this.deps.jobs.enqueue(
        this.emailJob,
        {
          kind: "broadcast",
          userId,
          category: input.category,
          id: input.id,
          title: input.title,
          text: input.text,
          path: input.path ?? "/",
        },
        { key: `broadcast:${input.id}:${userId}` },
      );
      if (id !== null) queued++;
    });
    return queued;
  }

  private async forRecipients(
    category: NotificationCategory,
    options: { inactiveBefore?: Date },
    each: (userId: number, lastSeen: Date) => Promise<unknown>,
  ): Promise<void> {
    for (let afterId = 0; ; ) {
      const page = await this.deps.accounts.notificationRecipients({ afterId, limit: NOTIFY_RULES.pageSize, ...options });
      if (page.length === 0) return;
      for (const row of page) {
        const disabled = this.deps.accounts.disabledNotifications(row);
        // Promotions go only to members who agreed to them (accounts' promotions consent).
        const consented = category !== "promotions" || row.promotionsConsentAt !== null;
        if (consented && emailAllowed({ email: row.email, disabled }, category)) await each(row.id, row.lastSeenAt);
      }
      afterId = page[page.length - 1]?.id ?? afterId;
    }
  }

  // Opting out

  /** POST /api/unsubscribe.php (RFC 8058): the token's category off with reason listunsubscribe. */
  async unsubscribe(token: string): Promise<NotificationCategory> {
    const named = await this.deps.tokens.verify(token);
    if (!named || !(await this.deps.accounts.turnOffNotifications(named.userId, [named.category], "listunsubscribe")))
      throw new AppError("unsubscribe_token_invalid");
    return named.category;
  }

  /**
   * A hard bounce or a spam complaint from the mail provider: every category off, with reason bounce or
   * fbl. An address no account has is ignored. Returns whether an account was changed.
   */
  async mailEvent(email: string, reason: "bounce" | "fbl"): Promise<boolean> {
    const user = await this.deps.accounts.findByEmail(email.trim().toLowerCase());
    if (!user) return false;
    return this.deps.accounts.turnOffNotifications(user.id, NOTIFICATION_CATEGORIES, reason);
  }
}
