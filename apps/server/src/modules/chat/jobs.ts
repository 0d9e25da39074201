import type { JobRef, JobRunner } from "../../platform/jobs.ts";
import type { ChatService } from "./service.ts";

export interface ChatJobs {
  /** Deletes the messages past the retention window (spec §8); the app schedules it daily. */
  purgeExpired: JobRef<undefined>;
}

/** Registers the chat's jobs with the runner; the app decides when periodic ones run. */
export function defineChatJobs(
  jobs: JobRunner,
  chat: Pick<ChatService, "purgeExpired">,
  log: { info(obj: object, msg: string): void },
): ChatJobs {
  return {
    purgeExpired: jobs.define(
      "chat.purge-expired",
      async () => {
        const purged = await chat.purgeExpired();
        if (purged) log.info({ purged }, "deleted messages past the retention window");
      },
      { timeoutMs: 30 * 60_000, maxAttempts: 3, backoffMs: 60_000 },
    ),
  };
}
