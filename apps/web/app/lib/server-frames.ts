// The live connection's frame schema, loaded on demand by server-events.ts (decision 025).
export { serverFrameSchema } from "@app/contract";
