import { z } from "zod";
import { idSchema } from "./http.ts";

/**
 * Complaints (issue #13, `/complaints`): anyone may complain about a member, a payment, their privacy
 * or the site. The complaint is stored for staff to handle and confirmed by e-mail with a reference.
 */

/** What a complaint is about; the web shows each as `complaints.subject.<value>`. */
export const COMPLAINT_SUBJECTS = ["fake_profile", "harassment", "payment", "privacy", "technical", "other"] as const;
export const complaintSubjectSchema = z.enum(COMPLAINT_SUBJECTS);
export type ComplaintSubject = z.infer<typeof complaintSubjectSchema>;

/** How a complaint is handled by staff: open → in_progress → closed. */
export const COMPLAINT_STATUSES = ["open", "in_progress", "closed"] as const;
export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number];

/** The description's length in characters (after trimming): enough to act on, short of an essay. */
export const COMPLAINT_DESCRIPTION_MIN = 20;
export const COMPLAINT_DESCRIPTION_MAX = 4000;

/**
 * `POST /api/complaint.php`. `profile_id` names the member concerned (it must exist: else the field
 * error profile_not_found; and be someone else: else complaint_about_self). `email` is needed from a visitor (field error email_required, or
 * invalid_email); a member's own account address is used and `email` is ignored. A description out of
 * bounds is the field error description_too_short / description_too_long. Rate limited per client
 * address and per member or e-mail address (rate_limited).
 */
export const complaintRequestSchema = z.object({
  subject: complaintSubjectSchema,
  /** Checked by the server for COMPLAINT_DESCRIPTION_MIN..MAX after trimming (own error codes). */
  description: z.string().max(COMPLAINT_DESCRIPTION_MAX * 4),
  profile_id: idSchema.nullable().optional(),
  email: z.string().max(254).optional(),
});
export type ComplaintRequest = z.infer<typeof complaintRequestSchema>;

/**
 * The reference of the stored complaint, "C-" and eight characters of an alphabet without look-alikes
 * (C-7KQ4-M2XD): random, so it does not reveal how many complaints there are, and easy to read out on
 * the phone. `email` is where the confirmation goes.
 */
export const complaintResponseSchema = z.object({ reference: z.string(), email: z.string() });
export type ComplaintResponse = z.infer<typeof complaintResponseSchema>;
