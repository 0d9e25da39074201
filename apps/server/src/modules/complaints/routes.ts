import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import { requestLocale } from "../../platform/http/request-locale.ts";
import type { ReportService } from "./reports.ts";
import type { ComplaintService } from "./service.ts";

/** Per client address (IPv6 per /64): a person with several complaints, not a script filling the queue. */
const COMPLAINT_LIMIT = { max: 5, timeWindow: "1 hour" };

/** Per client address: a member reporting what they meet, not a script filling the moderators' queue. */
const REPORT_LIMIT = { max: 20, timeWindow: "1 hour" };

/** `POST /api/complaint.php` (contract complaints.ts) and `POST /api/report.php` (contract moderation.ts). */
export async function complaintRoutes(
  app: FastifyInstance,
  options: { complaints: ComplaintService; reports: ReportService },
): Promise<void> {
  handle(
    app,
    ENDPOINTS.report,
    async ({ member, body }) => {
      const report = await options.reports.create({ userId: member.userId, profileId: member.profileId }, body);
      return { id: report.id };
    },
    { rateLimit: REPORT_LIMIT },
  );

  handle(
    app,
    ENDPOINTS.complaint,
    async ({ request, member, body }) => {
      const complainant = member
        ? { userId: member.userId, email: member.email, locale: member.locale }
        : { userId: null, locale: requestLocale(request) };
      const complaint = await options.complaints.create(complainant, body);
      return { reference: complaint.reference, email: complaint.email };
    },
    { rateLimit: COMPLAINT_LIMIT },
  );
}
