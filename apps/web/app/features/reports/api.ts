import { ENDPOINTS, type ReportRequest } from "@app/contract";
import { callEndpoint } from "../../lib/api";

/** POST /api/report.php: report a profile or a received message (issue #27). */
export function sendReport(body: ReportRequest) {
  return callEndpoint(ENDPOINTS.report, { body });
}
