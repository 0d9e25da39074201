import { z } from "zod";

/**
 * WebSocket `/ws` frames. Every frame is one JSON object with a `type`. Later modules add their events
 * (chat messages, typing, likes, matches, credits, badges) to these unions.
 */
export const clientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping"), id: z.string().max(64).optional() }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

export const serverFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("hello"), node: z.string(), user_id: z.number().int().nullable() }),
  z.object({ type: z.literal("pong"), id: z.string().optional() }),
  z.object({ type: z.literal("error"), error: z.string(), message: z.string() }),
  z.object({ type: z.literal("event"), topic: z.string(), payload: z.unknown() }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;

/** Close codes the server uses; 1001 on shutdown so that clients reconnect elsewhere. */
export const WS_CLOSE = { goingAway: 1001, policy: 1008, tooBig: 1009 } as const;
