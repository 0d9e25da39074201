import { z } from "zod";

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
