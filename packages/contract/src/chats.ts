import { z } from "zod";
import { idQueryValueSchema, idSchema, optionalInt } from "./http.ts";

/**
 * Chat (spec §1, §3, §4, §6, §7, §8; decision 020). One conversation per pair of profiles; messages in
 * server order (a per-conversation sequence), paged backwards by message id. A conversation a member
 * deleted leaves their list (and its messages until then leave their view) and comes back with a new
 * message. Messages older than CHAT_RETENTION_DAYS are hidden (spec §8: "Older messages are no longer
 * visible to protect your privacy.").
 */

/** Decision 020: messages older than this are not shown to anyone (the queries leave them out). */
export const CHAT_RETENTION_DAYS = 90;
/** Messages per page of GET /api/chat.php. */
export const CHAT_PAGE_SIZE = 50;
/** The length of the last-message preview in the chat list, in characters. */
export const CHAT_PREVIEW_LENGTH = 100;

/** The other member of a conversation, as the chat list and header show them. */
export const chatProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The main image's thumbnail path; null without an active one. */
  main_image: z.object({ thumb_url: z.string() }).nullable(),
  /** A fictional profile: the chat header shows the mark and warning. */
  fictional: z.boolean(),
});
export type ChatProfile = z.infer<typeof chatProfileSchema>;

/** One message as one member sees it (texts are plain text: the client escapes them, never HTML). */
export const chatMessageSchema = z.object({
  id: z.number().int(),
  conversation_id: z.number().int(),
  /** The sender's profile id. */
  profile_id: z.number().int(),
  from_me: z.boolean(),
  text: z.string(),
  /** ISO 8601. */
  created_at: z.string(),
  /** The sender's own client_id (their pending message becomes this one); null on the other side. */
  client_id: z.string().nullable(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/**
 * Spec §6: a member whose e-mail address is not confirmed can write, but the other member cannot reply
 * until it is; both see why. `me`: my address is unconfirmed; `other`: theirs is; null: neither.
 */
export const awaitingConfirmationSchema = z.enum(["me", "other"]).nullable();

/** One entry of the chat list (spec §3). */
export const chatListEntrySchema = z.object({
  conversation: z.object({ id: z.number().int() }),
  profile: chatProfileSchema,
  num_unread_messages: z.number().int().nonnegative(),
  /** The latest message the member can see, its text cut to CHAT_PREVIEW_LENGTH; null when none is left. */
  last_message: z.object({ text: z.string(), from_me: z.boolean(), created_at: z.string() }).nullable(),
  /** ISO 8601: the conversation's latest message (the list's order, newest first). */
  updated: z.string(),
  awaiting_confirmation: awaitingConfirmationSchema,
});
export type ChatListEntry = z.infer<typeof chatListEntrySchema>;

/** Spec §3 totals: conversations in the list, unread messages, new likes (the badges' counts). */
export const chatTotalsSchema = z.object({
  messages: z.number().int().nonnegative(),
  unread_messages: z.number().int().nonnegative(),
  new_likes: z.number().int().nonnegative(),
});
export type ChatTotals = z.infer<typeof chatTotalsSchema>;

/** GET /api/chats.php. */
export const chatsResponseSchema = z.object({ chats: z.array(chatListEntrySchema), totals: chatTotalsSchema });
export type ChatsResponse = z.infer<typeof chatsResponseSchema>;

/** GET /api/chat.php?id=&before=: one conversation; without `before` it is opened (unread to 0). */
export const chatQuerySchema = z.object({ id: idQueryValueSchema, before: optionalInt(1, 2_147_483_647) });
export type ChatQuery = z.input<typeof chatQuerySchema>;
export const chatResponseSchema = z.object({
  conversation: z.object({ id: z.number().int() }),
  profile: chatProfileSchema,
  /** Newest last. */
  messages: z.array(chatMessageSchema),
  /** More (visible) messages before the first one: ask again with `before` = its id. */
  has_more: z.boolean(),
  /** Messages older than the retention window exist: show spec §8's line at the top. */
  older_hidden: z.boolean(),
  /** The id of the latest of my messages the other member has read (read marks); null when none. */
  read_up_to: z.number().int().nullable(),
  awaiting_confirmation: awaitingConfirmationSchema,
});
export type ChatResponse = z.infer<typeof chatResponseSchema>;

/** DELETE /api/chat.php?id=: the conversation leaves the member's list (decision 020). */
export const chatDeleteQuerySchema = z.object({ id: idQueryValueSchema });
export const chatDeleteResponseSchema = z.object({ id: z.number().int() });

/** A UUID the client makes per message: a retry with the same one never stores or charges twice. */
export const clientIdSchema = z.uuid();

/** POST /api/message.php: a text message to a profile (a new or the existing conversation) or a conversation. */
export const messageRequestSchema = z
  .object({
    profile_id: idSchema.optional(),
    conversation_id: idSchema.optional(),
    client_id: clientIdSchema,
    /** Checked against settings.message_length by the server (message_too_long). */
    text: z.string().trim().min(1).max(20_000),
  })
  .strict()
  .refine((body) => (body.profile_id === undefined) !== (body.conversation_id === undefined), {
    message: "profile_id or conversation_id",
    path: ["profile_id"],
  });
export type MessageRequest = z.input<typeof messageRequestSchema>;
export const messageResponseSchema = z.object({
  conversation_id: z.number().int(),
  message: chatMessageSchema,
  /** The member's balance after this message. */
  credits: z.number().int().nonnegative(),
});
export type MessageResponse = z.infer<typeof messageResponseSchema>;
