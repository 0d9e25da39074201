/** The visits module's public face (issue #29, profile visitors). */
export { VisitService } from "./service.ts";
