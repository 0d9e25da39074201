import type { Db } from "../../platform/db/index.ts";
import type { JobRef, JobRunner } from "../../platform/jobs.ts";
import type { Mailer } from "../../platform/mailer.ts";
import { answerEmail } from "./answer-email.ts";
import { confirmationEmail } from "./confirmation.ts";
import type { ModerationQueue } from "./queue.ts";
import { findAnswer } from "./queue-queries.ts";
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

/**
 * Staff's answer to a complaint (issue #27): enqueued in the transaction that stores it (and writes its
 * audit row), sent once that commits, retried while the mail server is away.
 */
export function defineAnswerJobs(
  jobs: JobRunner,
  queue: ModerationQueue,
  complaints: ComplaintService,
  deps: { db: Db; mailer: Mailer; siteName(): Promise<string> },
): { answer: JobRef<{ answerId: number }> } {
  const answer = jobs.define<{ answerId: number }>(
    "complaints.send-answer",
    async ({ answerId }) => {
      const row = await findAnswer(deps.db, answerId);
      const complaint = row ? await complaints.find(row.complaintId) : undefined;
      if (!row || !complaint) return;
      const message = answerEmail({ complaint, answer: row, site: await deps.siteName() });
      await deps.mailer.send({ to: complaint.email, ...message });
    },
    { maxAttempts: 8, backoffMs: 60_000 },
  );
  queue.answerJob = answer;
  return { answer };
}
