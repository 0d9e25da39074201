/** The staff module's public face: its service, and the helpers other modules' staff routes use. */
export { actorOf, handleStaff } from "./http.ts";
export { type AuditEntry, type StaffActor, StaffService } from "./service.ts";
