/** The chat module's public face: its service (badges, operators and the app wiring use it). */

export type { ReportedMessage } from "./reading.ts";
export { sendRules } from "./routes.ts";
export type { PersonaContent, PersonaSent, PersonaSides, QueueCard, SendRules, WaitingRow } from "./service.ts";
export { ChatService } from "./service.ts";
export { ChatSupport } from "./support.ts";
