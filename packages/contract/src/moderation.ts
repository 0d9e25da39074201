import { z } from "zod";
import { idSchema } from "./http.ts";

/**
 * Review of photos and about texts (issue #27): a site reviews new and changed ones either before they
 * go live (visible only to their owner, "in review", until approved) or after (live at once, taken down
 * when rejected). A per-site setting (Settings.moderation); the embedded default is "after".
 */
export const MODERATION_MODES = ["before", "after"] as const;
export const moderationModeSchema = z.enum(MODERATION_MODES);
export type ModerationMode = z.infer<typeof moderationModeSchema>;

/** Why a photo or an about text was rejected; the member reads `moderation.reason.<key>` in their language. */
export const MODERATION_REASONS = ["not_a_person", "explicit", "contact_details", "offensive", "copyright", "other"] as const;
export const moderationReasonSchema = z.enum(MODERATION_REASONS);
export type ModerationReason = z.infer<typeof moderationReasonSchema>;

/**
 * Reports and bans (issue #27): members report a profile or a message; staff ban a member with a reason and
 * an optional end. Both reasons come from lists, so that the member reads them in their own language
 * (`moderation.report_reason.<value>`, `moderation.ban_reason.<value>`).
 */

/** Wrongs both lists name: a report's reason, and the same one as a ban's. */
const WRONGS = ["fake_profile", "spam", "scam", "harassment", "inappropriate_content", "underage"] as const;

/** Why a member reports a profile or a message. */
export const REPORT_REASONS = [...WRONGS, "other"] as const;
export const reportReasonSchema = z.enum(REPORT_REASONS);
export type ReportReason = z.infer<typeof reportReasonSchema>;

/** Why a member is banned: shown to them on /pages/ban. */
export const BAN_REASONS = [...WRONGS, "terms_violation"] as const;
export const banReasonSchema = z.enum(BAN_REASONS);
export type BanReason = z.infer<typeof banReasonSchema>;

/** What a report names: a member's profile, or one message of a conversation the reporter is in. */
export const REPORT_OBJECT_TYPES = ["profile", "message"] as const;
export type ReportObjectType = (typeof REPORT_OBJECT_TYPES)[number];

/** The reporter's own words, optional: at most this many characters after trimming. */
export const REPORT_TEXT_MAX = 1000;

/**
 * `POST /api/report.php` (issue #27). `profile_id` or `message_id` (exactly one). A profile must be one
 * the reporter may see and not their own (report_about_self); a message must be one the reporter
 * received (message_not_found otherwise). One open report per reporter and object (report_duplicate,
 * 409). Rate limited per client address and per member (rate_limited).
 */
export const reportRequestSchema = z
  .object({
    reason: reportReasonSchema,
    text: z
      .string()
      .max(REPORT_TEXT_MAX * 4)
      .optional(),
    profile_id: idSchema.optional(),
    message_id: idSchema.optional(),
  })
  .strict()
  .refine((r) => (r.profile_id === undefined) !== (r.message_id === undefined), {
    message: "name exactly one of profile_id and message_id",
    path: ["profile_id"],
  });
export type ReportRequest = z.infer<typeof reportRequestSchema>;
export const reportResponseSchema = z.object({ id: z.number().int() });
export type ReportResponse = z.infer<typeof reportResponseSchema>;

/** The ban a browser's ended session belongs to, for /pages/ban: its reason and end (ISO 8601, null: none). */
export const banNoticeSchema = z.object({ reason: banReasonSchema, ends_at: z.string().nullable() });
export type BanNotice = z.infer<typeof banNoticeSchema>;
