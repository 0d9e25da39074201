import { z } from "zod";
import { COMPLAINT_STATUSES, COMPLAINT_SUBJECTS } from "./complaints.ts";
import { LOCALE_CODES } from "./locale-list.ts";
import { BAN_REASONS, REPORT_OBJECT_TYPES, REPORT_REASONS } from "./moderation.ts";
import { staffEndpoint, staffIdParamsSchema } from "./staff.ts";

/**
 * The staff console's queue of reports and complaints, and bans (issue #27). Moderators handle reports
 * and bans, support handles complaints (admin both): the queue shows each role the kinds it handles.
 */

/** Which items the queue shows: still to handle (open and in progress), or one status. */
export const QUEUE_STATUSES = ["active", ...COMPLAINT_STATUSES] as const;
export const queueQuerySchema = z.object({ status: z.enum(QUEUE_STATUSES).default("active") });

/** A staff member's resolution when closing an item (what was done). */
export const RESOLUTION_MAX = 2000;
/** Staff's answer to a complaint, e-mailed to the complainant. */
export const ANSWER_MIN = 10;
export const ANSWER_MAX = 5000;
/** Staff's internal note on a ban (never shown to the member). */
export const BAN_NOTE_MAX = 2000;

const handlingFields = {
  id: z.number().int(),
  status: z.enum(COMPLAINT_STATUSES),
  created_at: z.string(),
  /** The staff account handling it (null: nobody yet). */
  assigned_to: z.number().int().nullable(),
  /** Their name as the console shows it (null: nobody, or an account since removed). */
  assigned_to_name: z.string().nullable(),
  resolution: z.string().nullable(),
  closed_at: z.string().nullable(),
};

/** What a report keeps of what was reported, as it stood then. */
export const reportContentSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("profile"), name: z.string(), about: z.string(), main_photo_url: z.string().nullable() }),
  z.object({
    type: z.literal("message"),
    sender_name: z.string(),
    kind: z.string(),
    text: z.string(),
    gift_id: z.string().nullable(),
    gif_url: z.string().nullable(),
    /** A photo message: the report keeps the photo's storage key (the console does not show it yet). */
    has_photo: z.boolean(),
    sent_at: z.string(),
  }),
]);
export type ReportContentView = z.infer<typeof reportContentSchema>;

export const queueReportSchema = z.object({
  kind: z.literal("report"),
  ...handlingFields,
  reason: z.enum(REPORT_REASONS),
  text: z.string(),
  object_type: z.enum(REPORT_OBJECT_TYPES),
  /** The member reported (user id and profile id; null once erased). */
  member_id: z.number().int().nullable(),
  profile_id: z.number().int().nullable(),
  reporter_id: z.number().int().nullable(),
  content: reportContentSchema,
});
export const complaintAnswerSchema = z.object({
  id: z.number().int(),
  staff_id: z.number().int(),
  text: z.string(),
  created_at: z.string(),
});
export const queueComplaintSchema = z.object({
  kind: z.literal("complaint"),
  ...handlingFields,
  reference: z.string(),
  subject: z.enum(COMPLAINT_SUBJECTS),
  description: z.string(),
  email: z.string(),
  /** The complainant's language: the answer's. */
  locale: z.enum(LOCALE_CODES),
  /** The complaining member (null: a visitor) and the member concerned, if any. */
  complainant_id: z.number().int().nullable(),
  profile_id: z.number().int().nullable(),
  answers: z.array(complaintAnswerSchema),
});
export const queueItemSchema = z.discriminatedUnion("kind", [queueReportSchema, queueComplaintSchema]);
export type QueueItemView = z.infer<typeof queueItemSchema>;
export const queueResponseSchema = z.object({ items: z.array(queueItemSchema) });

export const banSchema = z.object({
  id: z.number().int(),
  member_id: z.number().int(),
  reason: z.enum(BAN_REASONS),
  note: z.string(),
  /** ISO 8601; null: until lifted. */
  ends_at: z.string().nullable(),
  created_at: z.string(),
  created_by: z.number().int().nullable(),
  lifted_at: z.string().nullable(),
  lifted_by: z.number().int().nullable(),
});
export type BanEntry = z.infer<typeof banSchema>;

/** A ban's terms: a reason from the list, an optional end (ISO 8601, in the future: else ban_end_in_past), a note. */
export const banRequestSchema = z
  .object({
    reason: z.enum(BAN_REASONS),
    ends_at: z.string().datetime({ offset: true }).nullable().default(null),
    note: z.string().max(BAN_NOTE_MAX).default(""),
  })
  .strict();
export const reportBanRequestSchema = banRequestSchema
  .extend({ resolution: z.string().max(RESOLUTION_MAX).default("") })
  .strict();
export const resolutionRequestSchema = z.object({ resolution: z.string().trim().min(1).max(RESOLUTION_MAX) }).strict();
/** Checked by the server for ANSWER_MIN..ANSWER_MAX after trimming (answer_too_short / answer_too_long). */
export const answerRequestSchema = z.object({ text: z.string().max(ANSWER_MAX * 2) }).strict();

export const queueItemResponseSchema = z.object({ item: queueItemSchema });
export const bansResponseSchema = z.object({ current: banSchema.nullable(), history: z.array(banSchema) });

export const STAFF_REPORTS_ENDPOINTS = {
  queue: staffEndpoint({
    method: "GET",
    path: "/staff/api/reports",
    roles: ["moderator", "support"],
    query: queueQuerySchema,
    response: queueResponseSchema,
  }),
  reportAssign: staffEndpoint({
    method: "POST",
    path: "/staff/api/reports/:id/assign",
    roles: ["moderator"],
    params: staffIdParamsSchema,
    response: queueItemResponseSchema,
  }),
  reportDismiss: staffEndpoint({
    method: "POST",
    path: "/staff/api/reports/:id/dismiss",
    roles: ["moderator"],
    params: staffIdParamsSchema,
    body: resolutionRequestSchema,
    response: queueItemResponseSchema,
  }),
  /** Bans the reported member and closes the report, in one transaction with one audit row. */
  reportBan: staffEndpoint({
    method: "POST",
    path: "/staff/api/reports/:id/ban",
    roles: ["moderator"],
    params: staffIdParamsSchema,
    body: reportBanRequestSchema,
    response: queueItemResponseSchema,
  }),
  complaintAssign: staffEndpoint({
    method: "POST",
    path: "/staff/api/complaints/:id/assign",
    roles: ["support"],
    params: staffIdParamsSchema,
    response: queueItemResponseSchema,
  }),
  complaintAnswer: staffEndpoint({
    method: "POST",
    path: "/staff/api/complaints/:id/answer",
    roles: ["support"],
    params: staffIdParamsSchema,
    body: answerRequestSchema,
    response: queueItemResponseSchema,
  }),
  complaintClose: staffEndpoint({
    method: "POST",
    path: "/staff/api/complaints/:id/close",
    roles: ["support"],
    params: staffIdParamsSchema,
    body: resolutionRequestSchema,
    response: queueItemResponseSchema,
  }),
  memberBans: staffEndpoint({
    method: "GET",
    path: "/staff/api/members/:id/bans",
    roles: ["moderator", "support"],
    params: staffIdParamsSchema,
    response: bansResponseSchema,
  }),
  memberBan: staffEndpoint({
    method: "POST",
    path: "/staff/api/members/:id/ban",
    roles: ["moderator"],
    params: staffIdParamsSchema,
    body: banRequestSchema,
    response: bansResponseSchema,
  }),
  memberUnban: staffEndpoint({
    method: "POST",
    path: "/staff/api/members/:id/unban",
    roles: ["moderator"],
    params: staffIdParamsSchema,
    response: bansResponseSchema,
  }),
} as const;
