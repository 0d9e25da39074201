import { randomUUID } from "node:crypto";
import { and, eq, gte, inArray, lt, lte, or, sql } from "drizzle-orm";
import { ZodError, type ZodType } from "zod";
import type { Db } from "./db/index.ts";
import { type JobRow, jobs } from "./jobs.schema.ts";

/**
 * Durable jobs (decision 012): delayed and periodic work that survives a restart and runs once across
 * nodes. A job is a row in `jobs`; every node's runner polls for due rows, claims a few with
 * FOR UPDATE SKIP LOCKED in one short statement (no transaction stays open while a handler runs, which
 * matters on PGlite's single connection), leases them until `locked_until`, runs the handlers and
 * marks the rows done, or pending again with an exponential backoff, or failed after the last attempt.
 * A node that dies mid-job leaves its lease to expire; another node then runs the job again, so
 * handlers must be idempotent (delivery is at least once, and exactly once while nodes stay up).
 */

/** A defined job; the payload type travels with it, so `enqueue` is checked against the handler. */
export interface JobRef<P> {
  readonly name: string;
  /** Type-only marker; never set. */
  readonly payloadType?: P;
}

export interface JobContext {
  id: number;
  /** 1 on the first run. */
  attempt: number;
  /** Aborted when the handler runs past its timeout or the runner is stopped forcibly. */
  signal: AbortSignal;
}

export type JobHandler<P> = (payload: P, context: JobContext) => Promise<void>;

export interface JobOptions<P> {
  /** Checks the stored payload before the handler sees it; a payload that fails is failed at once. */
  payload?: ZodType<P>;
  /** Runs before the job is kept as failed (default 5). */
  maxAttempts?: number;
  /** Delay before the first retry, doubled for each further one (default 30 s). */
  backoffMs?: number;
  /** Longest delay between retries (default 1 h). */
  maxBackoffMs?: number;
  /** Longest a run may take before it counts as failed (default 5 min); the lease is this plus a margin. */
  timeoutMs?: number;
}

export interface EnqueueOptions {
  /** Not before this moment (default: now). */
  runAt?: Date;
  /** Idempotency: while a job of this name and key is pending, enqueueing another one does nothing. */
  key?: string;
}

export interface ScheduleOptions {
  /** The period: the job runs once in every period, on one node. Periods are aligned to the Unix epoch (UTC). */
  everyMs: number;
  /** Shifts the periods, e.g. `everyMs: DAY, offsetMs: 3 * HOUR` runs daily at 03:00 UTC. */
  offsetMs?: number;
}

export interface JobRunnerOptions {
  /** How often an idle runner looks for due jobs (default 1 s). */
  pollMs?: number;
  /** Jobs this runner runs at once (default 4). */
  concurrency?: number;
  /** The time jobs are scheduled by (tests move it forward). Nodes' clocks are assumed to be NTP-synchronised. */
  clock?: () => Date;
  log?: { error(obj: object, msg: string): void };
}

/** Whatever can insert: the database or a caller's open transaction. */
export type JobExecutor = Pick<Db, "insert">;

interface Definition {
  handler: JobHandler<unknown>;
  payload: ZodType<unknown> | undefined;
  maxAttempts: number;
  backoffMs: number;
  maxBackoffMs: number;
  timeoutMs: number;
}

const SECOND = 1000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Time beyond a handler's timeout before its lease expires: room to record the outcome. */
const LEASE_MARGIN_MS = 30 * SECOND;
const KEEP_DONE_MS = 7 * DAY;
const KEEP_FAILED_MS = 30 * DAY;
const ERROR_TEXT_LIMIT = 4000;

export class JobRunner {
  /** This runner's name in `locked_by`, to see which node holds a job. */
  readonly id = randomUUID();
  /** Deletes done jobs after a week and failed ones after a month; the app schedules it daily. */
  readonly prune: JobRef<undefined>;
  private readonly definitions = new Map<string, Definition>();
  private readonly schedules = new Map<string, { everyMs: number; offsetMs: number; lastSlot: number | null }>();
  private readonly active = new Set<Promise<void>>();
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly clock: () => Date;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly options: JobRunnerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? SECOND;
    this.concurrency = options.concurrency ?? 4;
    this.clock = options.clock ?? (() => new Date());
    this.prune = this.define("jobs.prune", async () => void (await this.deleteFinished()), { maxAttempts: 3 });
  }

  /** Registers a job's handler under a unique name (by convention `<module>.<verb>`). */
  define<P = undefined>(name: string, handler: JobHandler<P>, options: JobOptions<P> = {}): JobRef<P> {
    if (this.definitions.has(name)) throw new Error(`job ${name} is defined twice`);
    this.definitions.set(name, {
      handler: handler as JobHandler<unknown>,
      payload: options.payload,
      maxAttempts: Math.max(1, options.maxAttempts ?? 5),
      backoffMs: options.backoffMs ?? 30 * SECOND,
      maxBackoffMs: options.maxBackoffMs ?? HOUR,
      timeoutMs: options.timeoutMs ?? 5 * 60 * SECOND,
    });
    return { name };
  }

  /**
   * Stores a job to run at `runAt` (default now). Pass the caller's transaction to enqueue together with
   * its writes: a rolled-back transaction leaves no job. Returns the job's id, or null when a pending
   * job with the same key already exists.
   */
  async enqueue<P>(job: JobRef<P>, payload: P, options: EnqueueOptions = {}, tx: JobExecutor = this.db): Promise<number | null> {
    const definition = this.definitionOf(job.name);
    const runAt = options.runAt ?? this.clock();
    const [row] = await tx
      .insert(jobs)
      .values({
        name: job.name,
        payload: payload ?? null,
        key: options.key ?? null,
        runAt,
        maxAttempts: definition.maxAttempts,
      })
      .onConflictDoNothing({
        target: [jobs.name, jobs.key],
        where: sql`${jobs.key} is not null and ${jobs.state} = 'pending'`,
      })
      .returning({ id: jobs.id });
    if (row && runAt <= this.clock()) this.wake();
    return row?.id ?? null;
  }

  /** Runs a payload-less job once in every period, on one node, from the next poll on (also after a restart). */
  schedule(job: JobRef<undefined>, options: ScheduleOptions): void {
    this.definitionOf(job.name);
    if (!(options.everyMs >= SECOND)) throw new Error(`job ${job.name}: a period must be at least a second`);
    this.schedules.set(job.name, { everyMs: options.everyMs, offsetMs: options.offsetMs ?? 0, lastSlot: null });
  }

  /** Starts polling in the background. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.poll();
  }

  /** Stops claiming jobs and waits for the running handlers to finish (graceful shutdown). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    this.loop = null;
    await Promise.allSettled([...this.active]);
  }

  /**
   * One round, without the background loop: creates this period's run of each scheduled job, claims
   * due jobs up to the concurrency and runs them to the end. Returns how many it ran.
   */
  async runDue(): Promise<number> {
    const started = await this.claimAndStart();
    await Promise.allSettled(started);
    return started.length;
  }

  /** Rounds of `runDue` until none finds anything to run (more due jobs than the concurrency). */
  async runAllDue(): Promise<number> {
    let total = 0;
    for (let ran = await this.runDue(); ran > 0; ran = await this.runDue()) total += ran;
    return total;
  }

  private async poll(): Promise<void> {
    while (!this.stopping) {
      try {
        const started = await this.claimAndStart();
        // A finished handler frees a place: look again at once instead of after the poll interval.
        for (const run of started) void run.then(() => this.wake());
      } catch (err) {
        this.options.log?.error({ err }, "claiming jobs failed");
      }
      if (!this.stopping) await this.sleep(this.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake(), ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
    });
  }

  private wake(): void {
    this.wakeUp?.();
  }

  private async claimAndStart(): Promise<Promise<void>[]> {
    const free = this.concurrency - this.active.size;
    if (free <= 0 || this.definitions.size === 0) return [];
    const now = this.clock();
    await this.createScheduledRuns(now);
    await this.failAbandoned(now);
    const claimed = await this.claim(free, now);
    return claimed.map((row) => {
      const run = this.execute(row).finally(() => this.active.delete(run));
      this.active.add(run);
      return run;
    });
  }

  /** One row per period and job; the unique (name, slot) index makes sure only one node creates it. */
  private async createScheduledRuns(now: Date): Promise<void> {
    for (const [name, schedule] of this.schedules) {
      const { everyMs, offsetMs } = schedule;
      const slot = Math.floor((now.getTime() - offsetMs) / everyMs) * everyMs + offsetMs;
      if (schedule.lastSlot === slot) continue;
      await this.db
        .insert(jobs)
        .values({ name, slot: new Date(slot), runAt: new Date(slot), maxAttempts: this.definitionOf(name).maxAttempts })
        .onConflictDoNothing({ target: [jobs.name, jobs.slot], where: sql`${jobs.slot} is not null` });
      schedule.lastSlot = slot;
    }
  }

  /** A lease that ran out on the last attempt: the node died or hung; keep the job as failed. */
  private async failAbandoned(now: Date): Promise<void> {
    await this.db
      .update(jobs)
      .set({
        state: "failed",
        lockedUntil: null,
        finishedAt: now,
        lastError: sql`coalesce(${jobs.lastError} || E'\\n', '') || 'lease expired (node stopped or handler hung)'`,
      })
      .where(and(eq(jobs.state, "running"), lte(jobs.lockedUntil, now), gte(jobs.attempts, jobs.maxAttempts)));
  }

  /**
   * Claims due jobs in one statement: pending ones whose time has come and running ones whose lease
   * expired. SKIP LOCKED lets concurrent runners pass over rows another runner is claiming.
   */
  private async claim(limit: number, now: Date): Promise<JobRow[]> {
    const names = [...this.definitions.keys()];
    const due = this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(jobs.name, names),
          or(
            and(eq(jobs.state, "pending"), lte(jobs.runAt, now)),
            and(eq(jobs.state, "running"), lte(jobs.lockedUntil, now), lt(jobs.attempts, jobs.maxAttempts)),
          ),
        ),
      )
      .orderBy(jobs.runAt, jobs.id)
      .limit(limit)
      .for("update", { skipLocked: true });
    const leaseMs = sql.join(
      names.map((name) => sql`when ${name} then ${this.definitionOf(name).timeoutMs + LEASE_MARGIN_MS}::float8`),
      sql` `,
    );
    return this.db
      .update(jobs)
      .set({
        state: "running",
        attempts: sql`${jobs.attempts} + 1`,
        lockedBy: this.id,
        lockedUntil: sql`${now.toISOString()}::timestamptz + (case ${jobs.name} ${leaseMs} end) * interval '1 millisecond'`,
      })
      .where(sql`${jobs.id} = any(array(${due}))`)
      .returning();
  }

  private async execute(row: JobRow): Promise<void> {
    const definition = this.definitionOf(row.name);
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const payload = definition.payload ? definition.payload.parse(row.payload) : (row.payload ?? undefined);
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new Error(`timed out after ${definition.timeoutMs} ms`));
        }, definition.timeoutMs);
      });
      await Promise.race([
        definition.handler(payload, { id: row.id, attempt: row.attempts, signal: controller.signal }),
        timeout,
      ]);
      clearTimeout(timer);
      await this.settle(row, { state: "done", lockedUntil: null, finishedAt: this.clock() });
    } catch (error) {
      clearTimeout(timer);
      const lastError = errorText(error);
      // A payload that does not parse will not parse next time either.
      const final = error instanceof ZodError || row.attempts >= row.maxAttempts;
      this.options.log?.error({ err: error, job: row.name, id: row.id, attempt: row.attempts, final }, "job failed");
      const now = this.clock();
      await this.settle(
        row,
        final
          ? { state: "failed", lockedUntil: null, finishedAt: now, lastError }
          : {
              state: "pending",
              lockedUntil: null,
              lockedBy: null,
              lastError,
              runAt: new Date(now.getTime() + backoff(definition, row.attempts)),
            },
      );
    }
  }

  /** Records a run's outcome, unless the lease was lost meanwhile and another runner has the job. */
  private async settle(row: JobRow, values: Partial<typeof jobs.$inferInsert>): Promise<void> {
    try {
      await this.db
        .update(jobs)
        .set(values)
        .where(and(eq(jobs.id, row.id), eq(jobs.state, "running"), eq(jobs.attempts, row.attempts)));
    } catch (err) {
      // The lease runs out and the job runs again: at least once.
      this.options.log?.error({ err, job: row.name, id: row.id }, "recording a job's outcome failed");
    }
  }

  private async deleteFinished(): Promise<void> {
    const now = this.clock().getTime();
    await this.db
      .delete(jobs)
      .where(
        or(
          and(eq(jobs.state, "done"), lt(jobs.finishedAt, new Date(now - KEEP_DONE_MS))),
          and(eq(jobs.state, "failed"), lt(jobs.finishedAt, new Date(now - KEEP_FAILED_MS))),
        ),
      );
  }

  private definitionOf(name: string): Definition {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`job ${name} is not defined`);
    return definition;
  }
}

/** Delay before the next run after `attempts` failed ones: backoffMs, doubled each time, capped. */
export function backoff(definition: Pick<Definition, "backoffMs" | "maxBackoffMs">, attempts: number): number {
  return Math.min(definition.maxBackoffMs, definition.backoffMs * 2 ** Math.max(0, attempts - 1));
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.stack || error.message : String(error);
  return text.slice(0, ERROR_TEXT_LIMIT);
}
