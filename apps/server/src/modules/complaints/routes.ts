import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import { requestLocale } from "../../platform/http/request-locale.ts";
import type { ComplaintService } from "./service.ts";

/** Per client address (IPv6 per /64): a person with several complaints, not a script filling the queue. */
const COMPLAINT_LIMIT = { max: 5, timeWindow: "1 hour" };

/** `POST /api/complaint.php` (contract complaints.ts). */
export async function complaintRoutes(app: FastifyInstance, options: { complaints: ComplaintService }): Promise<void> {
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
