import type { JobRef, JobRunner } from "../../platform/jobs.ts";
import type { Mailer } from "../../platform/mailer.ts";
import { confirmationEmail } from "./confirmation.ts";
import type { ComplaintService } from "./service.ts";

/**
 * The confirmation of a complaint: enqueued in the transaction that stores it, so the complaint is kept
 * when the mail server is down and the confirmation goes out (at least once) when it is back.
 */
export function defineComplaintJobs(
  jobs: JobRunner,
  complaints: ComplaintService,
  deps: { mailer: Mailer; siteName(): Promise<string> },
): { confirmation: JobRef<{ complaintId: number }> } {
  const confirmation = jobs.define<{ complaintId: number }>(
    "complaints.send-confirmation",
    async ({ complaintId }) => {
      const complaint = await complaints.find(complaintId);
      if (!complaint) return;
      const message = confirmationEmail({ complaint, site: await deps.siteName() });
      await deps.mailer.send({ to: complaint.email, ...message });
    },
    { maxAttempts: 8, backoffMs: 60_000 },
  );
  complaints.confirmationJob = confirmation;
  return { confirmation };
}
