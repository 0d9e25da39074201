/** The blocks module's public face: its service and the SQL conditions it lends other modules. */
export { blockedEitherWayCondition, notBlockedByCondition } from "./queries.ts";
export { type AfterCommit, type BlockHook, BlockService } from "./service.ts";
