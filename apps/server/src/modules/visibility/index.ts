export { type BlockDirection, VisibilityPolicy } from "./service.ts";
