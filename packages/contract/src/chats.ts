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

/** What a message carries: text only, a photo, a gift (with an optional text) or a GIF. */
export const MESSAGE_KINDS = ["text", "photo", "gift", "gif"] as const;
export const messageKindSchema = z.enum(MESSAGE_KINDS);
export type MessageKind = z.infer<typeof messageKindSchema>;

/**
 * A chat photo: served only to the conversation's two members (`url` is a same-origin path the server
 * checks per request), metadata stripped by the photo pipeline.
 */
export const messagePhotoSchema = z.object({
  url: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
/**
 * The gift catalogue's ids, in the picker's order: the server has an image for each (made for us, no
 * downloads) and the web a name for each (`gift.<id>` in every locale).
 */
export const GIFT_IDS = [
  "rose",
  "bouquet",
  "heart",
  "kiss",
  "teddy",
  "chocolate",
  "champagne",
  "cocktail",
  "coffee",
  "cake",
  "ring",
  "star",
  "sunflower",
  "pizza",
] as const;
export type GiftId = (typeof GIFT_IDS)[number];

/** A gift of the catalogue; its name is the web's `gift.<id>` message in each locale. */
export const giftSchema = z.object({
  id: z.enum(GIFT_IDS),
  image_url: z.string(),
  /** What sending it costs this member (settings.gift_credits). */
  credits: z.number().int().nonnegative(),
});
export type Gift = z.infer<typeof giftSchema>;
/**
 * A GIF: `url` (the animation) and `preview_url` (a still or small one for the picker) are same-origin
 * paths, whatever the provider: the client never contacts GIPHY or Tenor itself.
 */
export const gifSchema = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  preview_url: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type Gif = z.infer<typeof gifSchema>;

/** One message as one member sees it (texts are plain text: the client escapes them, never HTML). */
export const chatMessageSchema = z.object({
  id: z.number().int(),
  conversation_id: z.number().int(),
  /** The sender's profile id. */
  profile_id: z.number().int(),
  from_me: z.boolean(),
  kind: messageKindSchema,
  /** The text; "" for a photo or GIF, and for a gift sent without one. */
  text: z.string(),
  photo: messagePhotoSchema.nullable(),
  gift: giftSchema.omit({ credits: true }).nullable(),
  gif: gifSchema.nullable(),
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
  /**
   * The latest message the member can see, its text cut to CHAT_PREVIEW_LENGTH (the web shows a photo,
   * gift or GIF by its kind); null when none is left.
   */
  last_message: z.object({ kind: messageKindSchema, text: z.string(), from_me: z.boolean(), created_at: z.string() }).nullable(),
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

/**
 * Spec §6: a free member writes in at most LIMITS.freeConversations conversations. `written_to`: the
 * profiles whose conversations the member has written in (deleted ones count too, as for the send);
 * a first message to anyone else is refused once there are `max`. Null: no limit (a premium member).
 * The web says so before the member types (issue #29): `mayWriteTo`.
 */
export const conversationLimitSchema = z.object({ max: z.number().int(), written_to: z.array(z.number().int()) }).nullable();
export type ConversationLimit = z.infer<typeof conversationLimitSchema>;

/** Whether a send to `profileId` is within the free conversation limit (the server checks it again). */
export function mayWriteTo(limit: ConversationLimit, profileId: number): boolean {
  return limit === null || limit.written_to.includes(profileId) || limit.written_to.length < limit.max;
}

/** GET /api/chats.php. */
export const chatsResponseSchema = z.object({
  chats: z.array(chatListEntrySchema),
  totals: chatTotalsSchema,
  conversation_limit: conversationLimitSchema,
});
export type ChatsResponse = z.infer<typeof chatsResponseSchema>;

/**
 * The credits each kind of send costs (settings message_credits, photo_credits, gift_credits), and the
 * member's country's price of a message where `minimum_message_costs` sets one (spec §9), for display.
 */
export const sendCostsSchema = z.object({
  message: z.number().int().nonnegative(),
  photo: z.number().int().nonnegative(),
  gift: z.number().int().nonnegative(),
  gif: z.number().int().nonnegative(),
  minimum: z.object({ costs: z.number(), currency: z.string() }).nullable(),
});
export type SendCosts = z.infer<typeof sendCostsSchema>;

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
  /** What each kind of send costs this member, and their balance (the footer shows both). */
  costs: sendCostsSchema,
  credits: z.number().int().nonnegative(),
});
export type ChatResponse = z.infer<typeof chatResponseSchema>;

/** DELETE /api/chat.php?id=: the conversation leaves the member's list (decision 020). */
export const chatDeleteQuerySchema = z.object({ id: idQueryValueSchema });
export const chatDeleteResponseSchema = z.object({ id: z.number().int() });

/** A UUID the client makes per message: a retry with the same one never stores or charges twice. */
export const clientIdSchema = z.uuid();

/**
 * POST /api/message.php: a message to a profile (a new or the existing conversation) or a conversation:
 * a text, a gift (`gift` = its id, with an optional text) or a GIF (`gif` = its id, no text). A text
 * message costs message_credits, a gift gift_credits, a GIF message_credits. Photos go through
 * POST /api/message-photo.php (multipart: the same `profile_id` | `conversation_id` and `client_id` as
 * fields, the image as `file`; photo_credits).
 */
export const messageRequestSchema = z
  .object({
    profile_id: idSchema.optional(),
    conversation_id: idSchema.optional(),
    client_id: clientIdSchema,
    /** Checked against settings.message_length by the server (message_too_long). */
    text: z.string().trim().max(20_000).optional(),
    gift: z.string().min(1).max(100).optional(),
    gif: z.string().min(1).max(200).optional(),
  })
  .strict()
  .refine((body) => (body.profile_id === undefined) !== (body.conversation_id === undefined), {
    message: "profile_id or conversation_id",
    path: ["profile_id"],
  })
  .refine((body) => !(body.gift !== undefined && body.gif !== undefined), { message: "gift or gif", path: ["gif"] })
  .refine((body) => body.gif === undefined || !body.text, { message: "a GIF has no text", path: ["text"] })
  .refine((body) => body.gift !== undefined || body.gif !== undefined || (body.text ?? "").length > 0, {
    message: "text, gift or gif",
    path: ["text"],
  });
export type MessageRequest = z.input<typeof messageRequestSchema>;
export const messageResponseSchema = z.object({
  conversation_id: z.number().int(),
  message: chatMessageSchema,
  /** The member's balance after this message. */
  credits: z.number().int().nonnegative(),
});
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** The fields of POST /api/message-photo.php besides the file (multipart). */
export const messagePhotoFieldsSchema = z
  .object({
    profile_id: idQueryValueSchema.optional(),
    conversation_id: idQueryValueSchema.optional(),
    client_id: clientIdSchema,
  })
  .refine((body) => (body.profile_id === undefined) !== (body.conversation_id === undefined), {
    message: "profile_id or conversation_id",
    path: ["profile_id"],
  });

/** GET /api/gifts.php: the gift catalogue (at least 12, images made for us, served by the site). */
export const giftsResponseSchema = z.object({ gifts: z.array(giftSchema) });
export type GiftsResponse = z.infer<typeof giftsResponseSchema>;

/** GIFs per page of GET /api/gifs.php. */
export const GIF_PAGE_SIZE = 24;
/**
 * GET /api/gifs.php?q=&locale=: GIF search. `locale` is the spec's `gifLocale` (e.g. "nl_NL"); an empty
 * `q` answers the trending/featured ones. The embedded default searches a local catalogue tagged in all
 * seven languages; with a GIPHY or Tenor key configured, that provider (through the server).
 */
export const gifsQuerySchema = z.object({
  q: z.string().trim().max(100).optional().default(""),
  locale: z
    .string()
    .regex(/^[a-z]{2}_[A-Z]{2}$/)
    .optional(),
});
export type GifsQuery = z.input<typeof gifsQuerySchema>;
export const gifsResponseSchema = z.object({
  gifs: z.array(gifSchema),
  provider: z.enum(["local", "giphy", "tenor"]),
});
export type GifsResponse = z.infer<typeof gifsResponseSchema>;
