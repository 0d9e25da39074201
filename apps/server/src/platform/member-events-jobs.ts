import type { JobRef, JobRunner } from "./jobs.ts";
import type { MemberEvents } from "./member-events.ts";

/**
 * Registers the member events' job with the runner (the app schedules it daily): deleting the events
 * past their retention.
 */
export function defineMemberEventJobs(jobs: JobRunner, events: Pick<MemberEvents, "prune">): { prune: JobRef<undefined> } {
  return { prune: jobs.define("member-events.prune", async () => void (await events.prune()), { maxAttempts: 3 }) };
}
