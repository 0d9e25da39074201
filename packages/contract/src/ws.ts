import { z } from "zod";
import { chatMessageSchema, clientIdSchema, messageRequestSchema, messageResponseSchema } from "./chats.ts";
import { apiErrorSchema } from "./errors.ts";
import { idSchema } from "./http.ts";
import { likePopupProfileSchema, likeStateSchema } from "./likes.ts";

export * from "./ws-constants.ts";

/**
 * Events the server delivers to one member: to every socket of theirs, on any server node. Each
 * module adds its own to this union (likes, matches, chat messages, typing, credits); the web app
 * subscribes with `useServerEvent(type, handler)`. Durable events carry a per-member sequence number
 * (`seq`), so that a client that was away asks for what it missed; ephemeral ones (typing) have none.
 */
export const memberEventSchema = z.discriminatedUnion("type", [
  /** The member's own account changed (credits, premium, settings on another device): reload the user call. */
  z.object({ type: z.literal("user.changed") }),
  /**
   * A count of the top navigation changed (unread messages, new likes): reload the counts. Not sent
   * beside a chat.message from the other member, which changes the unread count by itself.
   */
  z.object({ type: z.literal("badges.changed") }),
  /** Someone liked the member (not a match yet): the new-likes badge and the likes overview reload. */
  z.object({ type: z.literal("like.received"), profile_id: z.number().int() }),
  /**
   * A like between the member and `profile` changed (taken back, flag cleared in another tab, a block):
   * `state` is the new state as this member sees it. Lists and action bars showing that profile update.
   */
  z.object({ type: z.literal("like.changed"), profile_id: z.number().int(), state: likeStateSchema }),
  /**
   * A match with `profile` was made. `initiator` is true for the member whose like completed it: their
   * tabs show the match pop-up; the other member's badge and lists update.
   */
  z.object({ type: z.literal("like.match"), profile: likePopupProfileSchema, initiator: z.boolean() }),
  /**
   * A message in one of the member's conversations, theirs (`from_me`, from another tab) or the other
   * member's: the conversation shows it in order (by id), the chat list reloads, and for the other
   * member's the counts of the top navigation reload (no badges.changed comes with it).
   */
  z.object({ type: z.literal("chat.message"), conversation_id: z.number().int(), message: chatMessageSchema }),
  /** The other member read the conversation up to `message_id` (read marks). */
  z.object({ type: z.literal("chat.read"), conversation_id: z.number().int(), message_id: z.number().int() }),
  /** The conversation left the member's list (deleted in another tab, or a block). */
  z.object({ type: z.literal("chat.deleted"), conversation_id: z.number().int() }),
  /**
   * The other member of a conversation started or stopped typing (ephemeral: never stored, no `seq`).
   * A client shows the indicator for at most TYPING_TTL_MS after the last `typing: true`.
   */
  z.object({ type: z.literal("chat.typing"), conversation_id: z.number().int(), typing: z.boolean() }),
]);
export type MemberEvent = z.infer<typeof memberEventSchema>;
export type MemberEventType = MemberEvent["type"];
export type MemberEventOf<T extends MemberEventType> = Extract<MemberEvent, { type: T }>;

/** WebSocket `/ws` frames from the client. Every frame is one JSON object with a `type`. */
export const clientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping"), id: z.string().max(64).optional() }),
  /** The last `seq` the client has seen: the server sends the member's later events, or `resync`. */
  z.object({ type: z.literal("resume"), after: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER) }),
  /** The member is typing in a conversation (`true` at most every TYPING_THROTTLE_MS) or stopped. */
  z.object({ type: z.literal("typing"), conversation_id: idSchema, typing: z.boolean() }),
  /**
   * A chat message sent over the open socket: the body of POST /api/message.php, with the same rules,
   * costs and idempotency by `client_id` (a retry, on either path, stores and charges once). Answered
   * with `sent` or `send_failed` carrying that `client_id`.
   */
  z.object({ type: z.literal("send"), message: messageRequestSchema }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;
export type ClientFrameType = ClientFrame["type"];

export const serverFrameSchema = z.discriminatedUnion("type", [
  /** First frame: the node, the member (null for a visitor) and the member's latest event `seq`. */
  z.object({
    type: z.literal("hello"),
    node: z.string(),
    user_id: z.number().int().nullable(),
    seq: z.number().int(),
    /**
     * The client frame types this node handles. A page uses an optional one (`send`) only when listed:
     * during a rolling deploy a newer page may reach an older node.
     */
    accepts: z.array(z.string()).optional(),
  }),
  z.object({ type: z.literal("pong"), id: z.string().optional() }),
  z.object({ type: z.literal("error"), error: z.string(), message: z.string() }),
  /** One event for this member; `seq` null for ephemeral events. */
  z.object({ type: z.literal("event"), seq: z.number().int().nullable(), event: memberEventSchema }),
  /** The events after the client's `seq` are gone (older than the server keeps): reload everything. */
  z.object({ type: z.literal("resync"), seq: z.number().int() }),
  /** A `send` frame's message is stored (or was already: a retry): POST /api/message.php's answer. */
  z.object({ type: z.literal("sent"), answer: messageResponseSchema }),
  /** A `send` frame was refused: the HTTP status and error body POST /api/message.php would answer. */
  z.object({ type: z.literal("send_failed"), client_id: clientIdSchema, status: z.number().int(), body: apiErrorSchema }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;
