/** The complaints module's public face: its services (complaints, reports) for the app and the staff console. */
export { type Handling, ModerationQueue, type QueueItem, type QueueKind, type QueueStatus } from "./queue.ts";
export { type ReportContent, type ReportRow, ReportService } from "./reports.ts";
export { type Complainant, type ComplaintRow, ComplaintService } from "./service.ts";
