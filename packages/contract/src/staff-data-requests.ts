import { z } from "zod";
import { idSchema } from "./http.ts";
import { staffEndpoint } from "./staff.ts";

/** A member as the data-requests page shows them: enough to be sure it is the one who asked. */
export const dataRequestMemberSchema = z.object({
  id: z.number().int(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  status: z.enum(["not_confirmed", "active", "pending_deletion"]),
  language: z.string(),
  signup_date: z.string(),
  deletion_requested_at: z.string().nullable(),
});
export type DataRequestMember = z.infer<typeof dataRequestMemberSchema>;

const memberParams = z.object({ userId: z.coerce.number().pipe(idSchema) });

/**
 * Members' data requests in the staff console (issue #27, GDPR art. 15, 17 and 20): support finds the
 * member who asked, downloads the same ZIP the member can download from their settings, or starts the
 * erasure the member can start themselves (14 days to reactivate, then everything goes). Both audited.
 */
export const STAFF_DATA_REQUESTS_ENDPOINTS = {
  /** A member by account id or e-mail address; null when none matches (fictional profiles have no account to ask). */
  dataRequestFind: staffEndpoint({
    method: "GET",
    path: "/staff/api/data-requests",
    roles: ["support"],
    query: z.object({ q: z.string().trim().min(1).max(254) }),
    response: z.object({ member: dataRequestMemberSchema.nullable() }),
  }),
  /** The member's data export as a ZIP (the body is the file; the response schema describes nothing). */
  dataRequestExport: staffEndpoint({
    method: "GET",
    path: "/staff/api/data-requests/:userId/export",
    roles: ["support"],
    params: memberParams,
    response: z.unknown(),
  }),
  dataRequestErase: staffEndpoint({
    method: "POST",
    path: "/staff/api/data-requests/:userId/erasure",
    roles: ["support"],
    params: memberParams,
    response: z.object({ member: dataRequestMemberSchema }),
  }),
};
