import { MODERATION_REASONS } from "@app/contract";
import { z } from "zod";
import type { JobRef, JobRunner } from "../../platform/jobs.ts";
import type { Mailer } from "../../platform/mailer.ts";
import { rejectionEmail } from "./email.ts";
import type { ModerationService, RejectionNotice } from "./service.ts";

const noticeSchema = z.object({
  userId: z.number().int(),
  kind: z.enum(["photo", "about"]),
  reason: z.enum(MODERATION_REASONS),
});

/**
 * The e-mail telling a member why their photo or about text was rejected: enqueued in the decision's
 * transaction, so a decision rolled back sends nothing and a mail server down delays it only.
 */
export function defineModerationJobs(
  jobs: JobRunner,
  moderation: ModerationService,
  deps: {
    mailer: Mailer;
    /** The member's address and language, or null (an erased account, no address). */
    recipientOf(userId: number): Promise<{ email: string; language: string } | null>;
    site(): Promise<{ name: string; origin: string }>;
  },
): { rejection: JobRef<RejectionNotice> } {
  const rejection = jobs.define<RejectionNotice>(
    "moderation.send-rejection",
    async (notice) => {
      const recipient = await deps.recipientOf(notice.userId);
      if (!recipient) return;
      const site = await deps.site();
      const message = rejectionEmail({
        kind: notice.kind,
        reason: notice.reason,
        language: recipient.language,
        site: site.name,
        profileUrl: `${site.origin}/profile`,
      });
      await deps.mailer.send({ to: recipient.email, ...message });
    },
    { payload: noticeSchema, maxAttempts: 8, backoffMs: 60_000 },
  );
  moderation.rejectionJob = rejection;
  return { rejection };
}
