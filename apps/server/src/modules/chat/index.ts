/** The chat module's public face: its service (badges and the app wiring use it). */

export type { ReportedMessage } from "./reading.ts";
export { ChatService } from "./service.ts";
