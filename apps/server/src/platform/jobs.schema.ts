import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const JOB_STATES = ["pending", "running", "done", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * Durable jobs (decision 012): one row per run of delayed or periodic work. A runner claims due rows
 * with FOR UPDATE SKIP LOCKED and leases them until `locked_until`; a node that dies mid-job leaves
 * the lease to expire and another node runs the job again. Done rows are pruned after a week, failed
 * rows after a month (kept with their error for inspection).
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    /** The handler's input as JSON; null for a job without one. */
    payload: jsonb("payload"),
    /** Dedupe key: at most one pending job per (name, key). */
    key: text("key"),
    /** Periodic jobs: the start of the period this run stands for; one row per (name, slot), ever. */
    slot: timestamp("slot", { withTimezone: true }),
    state: text("state", { enum: JOB_STATES }).notNull().default("pending"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    /** Claims so far; also the fencing token of the current claim (a runner only finishes its own claim). */
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("jobs_due").on(t.runAt).where(sql`${t.state} = 'pending'`),
    index("jobs_leased").on(t.lockedUntil).where(sql`${t.state} = 'running'`),
    index("jobs_finished").on(t.finishedAt).where(sql`${t.state} in ('done', 'failed')`),
    uniqueIndex("jobs_pending_key").on(t.name, t.key).where(sql`${t.key} is not null and ${t.state} = 'pending'`),
    uniqueIndex("jobs_slot").on(t.name, t.slot).where(sql`${t.slot} is not null`),
  ],
);

export type JobRow = typeof jobs.$inferSelect;
