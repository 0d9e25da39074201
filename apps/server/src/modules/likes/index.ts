/** The likes module's public face: its service (badges and the app wiring use it). */
export { LikeService } from "./service.ts";
export { LikeSupport } from "./support.ts";
