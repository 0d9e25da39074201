/** What other modules use of the staff module: their console routes' helper and the audit log's types. */
export { actorOf, handleStaff, type StaffEndpointContext, staffOf } from "./http.ts";
export type { AuditEntry, StaffActor, StaffService } from "./service.ts";
