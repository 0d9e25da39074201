/** The complaints module's public face: its service (staff's list and status changes). */
export { type Complainant, type ComplaintRow, ComplaintService } from "./service.ts";
