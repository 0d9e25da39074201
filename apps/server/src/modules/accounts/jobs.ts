import type { JobRef, JobRunner } from "../../platform/jobs.ts";
import type { BanService } from "./bans.ts";
import type { AccountService } from "./service.ts";

export interface AccountJobs {
  /** Erases the accounts whose 14 days to reactivate are over; idempotent, so a repeated run is harmless. */
  purgeDeletions: JobRef<undefined>;
  /** Clears the mark of bans that ended by themselves (they stopped hiding the member at their end already). */
  clearEndedBans: JobRef<undefined>;
  /** Forgets members' logins older than LOGIN_HISTORY_DAYS. */
  pruneLogins: JobRef<undefined>;
}

/** Registers the accounts' jobs with the runner; the app decides when periodic ones run. */
export function defineAccountJobs(
  jobs: JobRunner,
  accounts: AccountService,
  bans: BanService,
  log: { info(obj: object, msg: string): void },
): AccountJobs {
  return {
    purgeDeletions: jobs.define(
      "accounts.purge-deletions",
      async () => {
        const erased = await accounts.purgeExpiredDeletions();
        if (erased) log.info({ erased }, "erased deleted accounts");
      },
      // Photo files go one by one: a large backlog may take a while. A failed run is retried; the
      // next hour's run would catch up anyway.
      { timeoutMs: 30 * 60_000, maxAttempts: 3, backoffMs: 60_000 },
    ),
    clearEndedBans: jobs.define("accounts.clear-ended-bans", async () => {
      const cleared = await bans.clearEnded();
      if (cleared) log.info({ cleared }, "bans ended");
    }),
    pruneLogins: jobs.define("accounts.prune-logins", async () => {
      const pruned = await accounts.support.pruneLogins();
      if (pruned) log.info({ pruned }, "old logins forgotten");
    }),
  };
}
