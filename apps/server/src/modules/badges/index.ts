export { BadgeService } from "./service.ts";
