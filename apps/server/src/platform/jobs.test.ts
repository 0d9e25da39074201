import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openTestDatabase, type TestDatabase, usingPostgres } from "../test/harness.ts";
import { type Database, type Db, openDatabase } from "./db/index.ts";
import { jobs } from "./jobs.schema.ts";
import { JobRunner, type JobRunnerOptions } from "./jobs.ts";

const HOUR = 3_600_000;

let database: TestDatabase;
let counter = 0;
/** Each test defines its own job names: runners only claim the jobs they define. */
const uniqueName = (what: string) => `test.${what}-${++counter}`;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database?.destroy();
});

/** A clock the test moves by hand. */
function manualClock(start = "2026-03-02T10:15:00Z") {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    set: (iso: string) => {
      now = new Date(iso).getTime();
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const runner = (db: Db = database.db, options: JobRunnerOptions = {}) => new JobRunner(db, { concurrency: 4, ...options });
const rowOf = async (id: number | null) => {
  const [row] = await database.db
    .select()
    .from(jobs)
    .where(eq(jobs.id, id ?? -1));
  if (!row) throw new Error(`no job ${id}`);
  return row;
};
/** Runs rounds until nothing is due. */
async function drain(jobRunner: JobRunner): Promise<number> {
  let total = 0;
  for (let ran = await jobRunner.runDue(); ran > 0; ran = await jobRunner.runDue()) total += ran;
  return total;
}

describe(`jobs (${usingPostgres ? "PostgreSQL" : "PGlite"})`, () => {
  it("runs a job enqueued in a committed transaction, never one enqueued in a rolled-back one", async () => {
    const jobRunner = runner();
    const seen: string[] = [];
    const job = jobRunner.define<{ note: string }>(uniqueName("tx"), async ({ note }) => void seen.push(note), {
      payload: z.object({ note: z.string() }),
    });
    await expect(
      database.db.transaction(async (tx) => {
        await jobRunner.enqueue(job, { note: "rolled back" }, {}, tx);
        throw new Error("abort the transaction");
      }),
    ).rejects.toThrow("abort the transaction");
    await database.db.transaction(async (tx) => {
      await jobRunner.enqueue(job, { note: "committed" }, {}, tx);
    });
    expect(await drain(jobRunner)).toBe(1);
    expect(seen).toEqual(["committed"]);
  });

  it("runs a job not before its time", async () => {
    const clock = manualClock();
    const jobRunner = runner(database.db, { clock: clock.now });
    let runs = 0;
    const job = jobRunner.define(uniqueName("later"), async () => void runs++);
    const id = await jobRunner.enqueue(job, undefined, { runAt: new Date(clock.now().getTime() + 60_000) });
    expect(await jobRunner.runDue()).toBe(0);
    clock.advance(59_999);
    expect(await jobRunner.runDue()).toBe(0);
    clock.advance(1);
    expect(await jobRunner.runDue()).toBe(1);
    expect(runs).toBe(1);
    expect(await rowOf(id)).toMatchObject({ state: "done", attempts: 1, lockedUntil: null });
  });

  it("keeps a job across a restart: a new runner on a reopened database runs it", async () => {
    // PGlite: a database in a folder, closed and opened again. PostgreSQL: a second pool, closed, and a third.
    const dir = usingPostgres ? null : await mkdtemp(path.join(tmpdir(), "jobs-restart-"));
    const open = (): Promise<Database> => (dir ? openDatabase({ dataDir: dir }) : database.connectAgain());
    const name = uniqueName("restart");
    try {
      const before = await open();
      const first = runner(before.db);
      const id = await first.enqueue(
        first.define<{ n: number }>(name, async () => {}),
        { n: 7 },
      );
      await first.stop();
      await before.close();

      const after = await open();
      try {
        const seen: number[] = [];
        const second = runner(after.db);
        second.define<{ n: number }>(name, async ({ n }) => void seen.push(n));
        expect(await drain(second)).toBe(1);
        expect(seen).toEqual([7]);
        const [row] = await after.db
          .select()
          .from(jobs)
          .where(eq(jobs.id, id ?? -1));
        expect(row?.state).toBe("done");
      } finally {
        await after.close();
      }
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  });

  it("runs each of 50 due jobs exactly once with two runners racing (two pools on PostgreSQL)", async () => {
    const other = await database.connectAgain();
    try {
      const name = uniqueName("race");
      const runs = new Map<number, number>();
      const byRunner = [0, 0];
      const handler =
        (index: number) =>
        async ({ n }: { n: number }) => {
          runs.set(n, (runs.get(n) ?? 0) + 1);
          byRunner[index] = (byRunner[index] ?? 0) + 1;
          await new Promise((resolve) => setTimeout(resolve, 2));
        };
      const a = runner(database.db);
      const b = runner(other.db);
      const jobA = a.define(name, handler(0));
      b.define(name, handler(1));
      for (let n = 0; n < 50; n++) await a.enqueue(jobA, { n });
      const [ranA, ranB] = await Promise.all([drain(a), drain(b)]);
      expect(ranA + ranB).toBe(50);
      expect([...runs.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, n) => n));
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      expect(byRunner).toEqual([ranA, ranB]);
      const states = await database.db
        .select({ state: jobs.state, attempts: jobs.attempts })
        .from(jobs)
        .where(eq(jobs.name, name));
      expect(states).toHaveLength(50);
      expect(states.every((row) => row.state === "done" && row.attempts === 1)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("retries a failing job with exponential backoff and keeps it as failed, with its error, after the last attempt", async () => {
    const clock = manualClock();
    const jobRunner = runner(database.db, { clock: clock.now });
    let attempts = 0;
    const job = jobRunner.define(
      uniqueName("failing"),
      async () => {
        attempts++;
        throw new Error(`mail server down (${attempts})`);
      },
      { maxAttempts: 3, backoffMs: 1000 },
    );
    const id = await jobRunner.enqueue(job, undefined);
    const start = clock.now().getTime();

    expect(await jobRunner.runDue()).toBe(1);
    expect(await rowOf(id)).toMatchObject({ state: "pending", attempts: 1, runAt: new Date(start + 1000) });
    expect((await rowOf(id)).lastError).toContain("mail server down (1)");
    clock.advance(999);
    expect(await jobRunner.runDue()).toBe(0);
    clock.advance(1);
    expect(await jobRunner.runDue()).toBe(1);
    // The second delay is twice the first.
    expect(await rowOf(id)).toMatchObject({ state: "pending", attempts: 2, runAt: new Date(start + 1000 + 2000) });
    clock.advance(1999);
    expect(await jobRunner.runDue()).toBe(0);
    clock.advance(1);
    expect(await jobRunner.runDue()).toBe(1);

    const row = await rowOf(id);
    expect(row).toMatchObject({ state: "failed", attempts: 3, lockedUntil: null });
    expect(row.lastError).toContain("mail server down (3)");
    clock.advance(HOUR);
    expect(await jobRunner.runDue()).toBe(0);
    expect(attempts).toBe(3);
  });

  it("fails a run that passes its timeout, and a payload that does not parse without retrying", async () => {
    const jobRunner = runner();
    const slow = jobRunner.define(uniqueName("slow"), () => new Promise<void>((resolve) => setTimeout(resolve, 2000)), {
      timeoutMs: 50,
      maxAttempts: 1,
    });
    const typed = jobRunner.define(uniqueName("typed"), async () => {}, { payload: z.object({ userId: z.number() }) });
    const slowId = await jobRunner.enqueue(slow, undefined);
    const typedId = await jobRunner.enqueue(typed, { userId: "seven" } as unknown as { userId: number });
    expect(await drain(jobRunner)).toBe(2);
    expect(await rowOf(slowId)).toMatchObject({ state: "failed", attempts: 1 });
    expect((await rowOf(slowId)).lastError).toContain("timed out after 50 ms");
    expect(await rowOf(typedId)).toMatchObject({ state: "failed", attempts: 1 });
    expect((await rowOf(typedId)).lastError).toContain("userId");
  });

  it("runs a job again on another runner once the lease of a runner that stopped answering has expired", async () => {
    const clock = manualClock();
    const name = uniqueName("lease");
    let release: () => void = () => {};
    const stuck = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runs: string[] = [];
    const crashed = runner(database.db, { clock: clock.now });
    const job = crashed.define(
      name,
      async () => {
        runs.push("crashed");
        await stuck;
      },
      { timeoutMs: 60_000 },
    );
    const id = await crashed.enqueue(job, undefined);
    const hanging = crashed.runDue();
    await expect.poll(() => runs).toEqual(["crashed"]);
    expect(await rowOf(id)).toMatchObject({ state: "running", attempts: 1, lockedBy: crashed.id });

    const rescuer = runner(database.db, { clock: clock.now });
    rescuer.define(name, async () => void runs.push("rescuer"), { timeoutMs: 60_000 });
    expect(await rescuer.runDue()).toBe(0); // still leased
    clock.advance(60_000 + 30_000 + 1);
    expect(await rescuer.runDue()).toBe(1);
    expect(await rowOf(id)).toMatchObject({ state: "done", attempts: 2, lockedBy: rescuer.id });

    // The first runner comes back to life: its outcome no longer counts.
    release();
    await hanging;
    expect(runs).toEqual(["crashed", "rescuer"]);
    expect(await rowOf(id)).toMatchObject({ state: "done", attempts: 2, lockedBy: rescuer.id });
  });

  it("keeps a job whose lease expired on its last attempt as failed", async () => {
    const clock = manualClock();
    const name = uniqueName("abandoned");
    const first = runner(database.db, { clock: clock.now });
    const job = first.define(name, () => new Promise<void>(() => {}), { maxAttempts: 1, timeoutMs: 60_000 });
    const id = await first.enqueue(job, undefined);
    void first.runDue();
    await expect.poll(async () => (await rowOf(id)).state).toBe("running");
    const second = runner(database.db, { clock: clock.now });
    let ran = 0;
    second.define(name, async () => void ran++, { maxAttempts: 1 });
    clock.advance(HOUR);
    expect(await second.runDue()).toBe(0);
    expect(ran).toBe(0);
    const row = await rowOf(id);
    expect(row).toMatchObject({ state: "failed", attempts: 1 });
    expect(row.lastError).toContain("lease expired");
  });

  it("runs a periodic job once per period with two runners, also after a restart", async () => {
    const clock = manualClock("2026-03-02T10:15:00Z");
    const name = uniqueName("hourly");
    const other = await database.connectAgain();
    try {
      let runs = 0;
      const make = (db: Db) => {
        const jobRunner = runner(db, { clock: clock.now });
        jobRunner.schedule(
          jobRunner.define(name, async () => void runs++),
          { everyMs: HOUR },
        );
        return jobRunner;
      };
      const a = make(database.db);
      const b = make(other.db);
      await Promise.all([a.runDue(), b.runDue()]);
      await Promise.all([a.runDue(), b.runDue()]);
      expect(runs).toBe(1);
      clock.set("2026-03-02T10:59:59Z");
      await Promise.all([drain(a), drain(b), drain(make(database.db))]);
      expect(runs).toBe(1);
      clock.set("2026-03-02T11:00:00Z");
      await Promise.all([drain(a), drain(b)]);
      expect(runs).toBe(2);
      const slots = await database.db.select({ slot: jobs.slot }).from(jobs).where(eq(jobs.name, name)).orderBy(jobs.slot);
      expect(slots.map((row) => row.slot?.toISOString())).toEqual(["2026-03-02T10:00:00.000Z", "2026-03-02T11:00:00.000Z"]);
    } finally {
      await other.close();
    }
  });

  it("keeps at most one pending job per key", async () => {
    const jobRunner = runner();
    const seen: number[] = [];
    const job = jobRunner.define<{ n: number }>(uniqueName("dedupe"), async ({ n }) => void seen.push(n));
    const first = await jobRunner.enqueue(job, { n: 1 }, { key: "user:7" });
    expect(first).not.toBeNull();
    expect(await jobRunner.enqueue(job, { n: 2 }, { key: "user:7" })).toBeNull();
    expect(await jobRunner.enqueue(job, { n: 3 }, { key: "user:8" })).not.toBeNull();
    expect(await drain(jobRunner)).toBe(2);
    expect(seen.sort()).toEqual([1, 3]);
    // Once it has run, the key is free again.
    const again = await jobRunner.enqueue(job, { n: 4 }, { key: "user:7" });
    expect(again).not.toBeNull();
    expect(again).not.toBe(first);
  });

  it("runs due jobs in the background and waits for a running one when stopped", async () => {
    const jobRunner = runner(database.db, { pollMs: 20 });
    const events: string[] = [];
    const job = jobRunner.define(uniqueName("background"), async () => {
      events.push("started");
      await new Promise((resolve) => setTimeout(resolve, 200));
      events.push("finished");
    });
    const id = await jobRunner.enqueue(job, undefined);
    jobRunner.start();
    await expect.poll(() => events).toEqual(["started"]);
    await jobRunner.stop();
    expect(events).toEqual(["started", "finished"]);
    expect((await rowOf(id)).state).toBe("done");
  });

  it("prunes done jobs after a week and failed ones after a month", async () => {
    const clock = manualClock();
    const jobRunner = runner(database.db, { clock: clock.now });
    const name = uniqueName("old");
    jobRunner.define(name, async () => {});
    const week = 7 * 24 * HOUR;
    const at = (ms: number) => new Date(clock.now().getTime() - ms);
    const inserted = await database.db
      .insert(jobs)
      .values([
        { name, state: "done", maxAttempts: 1, finishedAt: at(week + 1) },
        { name, state: "done", maxAttempts: 1, finishedAt: at(week - 1000) },
        { name, state: "failed", maxAttempts: 1, finishedAt: at(2 * week) },
        { name, state: "failed", maxAttempts: 1, finishedAt: at(31 * 24 * HOUR) },
      ])
      .returning({ id: jobs.id });
    await jobRunner.enqueue(jobRunner.prune, undefined);
    await drain(jobRunner);
    const left = await database.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.name, name)).orderBy(jobs.id);
    expect(left.map((row) => row.id)).toEqual([inserted[1]?.id, inserted[2]?.id]);
  });
});
