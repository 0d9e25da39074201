/** The chat module's public face: its service (badges and the app wiring use it). */
export { ChatService } from "./service.ts";
export { ChatSupport } from "./support.ts";
