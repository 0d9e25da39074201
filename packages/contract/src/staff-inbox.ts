import { z } from "zod";
import { chatMessageSchema, gifsResponseSchema, messageKindSchema } from "./chats.ts";
import { likeStateSchema } from "./likes.ts";
import { staffEndpoint } from "./staff.ts";

/**
 * The operators' inbox (issue #27): conversations with a fictional profile that wait for an answer,
 * claimed with a lease, answered as the profile. Staff API at /staff/api/inbox…; the schemas here, the
 * endpoints in STAFF_INBOX_ENDPOINTS.
 */

/** How long a claim lasts unless the operator's page renews it (it renews every INBOX_RENEW_SECONDS). */
export const INBOX_LEASE_SECONDS = 120;
export const INBOX_RENEW_SECONDS = 30;
/** Queue entries per page. */
export const INBOX_PAGE_SIZE = 50;
/** The longest note an operator keeps per pair. */
export const INBOX_NOTE_LENGTH = 4_000;

/** A profile as the inbox shows it: card columns and the main photo's thumbnail. */
export const inboxCardSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  country: z.string(),
  city: z.string().nullable(),
  photo_url: z.string().nullable(),
});
export type InboxCard = z.infer<typeof inboxCardSchema>;

/** Who holds a conversation now; `mine`: the asking operator. */
export const inboxClaimSchema = z.object({ staff_id: z.number().int(), expires_at: z.string(), mine: z.boolean() });

export const inboxQueueItemSchema = z.object({
  conversation_id: z.number().int(),
  /** ISO 8601: the member's first unanswered message. */
  waiting_since: z.string(),
  persona: inboxCardSchema,
  member: inboxCardSchema,
  last_message: z.object({ kind: messageKindSchema, text: z.string() }),
  claim: inboxClaimSchema.nullable(),
});
export type InboxQueueItem = z.infer<typeof inboxQueueItemSchema>;

export const inboxQueueQuerySchema = z.object({
  /** A previous page's last entry: `<waiting_since ISO>_<conversation_id>`. */
  after: z
    .string()
    .regex(/^[0-9T:.\-Z+]+_\d+$/)
    .optional(),
});

export const inboxQueueSchema = z.object({
  /** Conversations waiting now, all of them. */
  waiting: z.number().int(),
  items: z.array(inboxQueueItemSchema),
  /** The `after` of the next page; null on the last one. */
  next: z.string().nullable(),
});
export type InboxQueue = z.infer<typeof inboxQueueSchema>;

/** A profile's details for the conversation view: the card, its about text and interests. */
export const inboxProfileSchema = inboxCardSchema.extend({ about: z.string(), interests: z.array(z.string()) });

export const inboxConversationSchema = z.object({
  conversation_id: z.number().int(),
  waiting_since: z.string().nullable(),
  persona: inboxProfileSchema.extend({
    /** The fictional profile's photos an operator may send (its own, re-encoded for the chat). */
    photos: z.array(z.object({ id: z.number().int(), thumb_url: z.string() })),
  }),
  member: inboxProfileSchema,
  /** The latest messages, oldest first, as the fictional profile sees them (`from_me`: the persona's). */
  history: z.array(chatMessageSchema),
  /** What the fictional profile wrote before in its other conversations, newest first. */
  earlier: z.array(
    z.object({ conversation_id: z.number().int(), kind: messageKindSchema, text: z.string(), created_at: z.string() }),
  ),
  note: z.object({ text: z.string(), updated_at: z.string(), staff_id: z.number().int() }).nullable(),
  claim: inboxClaimSchema.nullable(),
});
export type InboxConversation = z.infer<typeof inboxConversationSchema>;

export const inboxConversationParamsSchema = z.object({ conversationId: z.coerce.number().int().positive().max(2_147_483_647) });

export const inboxLeaseSchema = z.object({ conversation_id: z.number().int(), expires_at: z.string() });
export type InboxLease = z.infer<typeof inboxLeaseSchema>;

/** An answer as the profile: a text, a gift (with an optional text), a GIF, or one of the profile's photos. */
export const inboxAnswerSchema = z
  .object({
    client_id: z.uuid(),
    text: z.string().trim().max(10_000).optional(),
    gift: z.string().optional(),
    gif: z.string().min(1).max(200).optional(),
    photo_id: z.number().int().positive().optional(),
  })
  .refine(
    (a) => [a.gift, a.gif, a.photo_id].filter((x) => x !== undefined).length + (a.gift === undefined && a.text ? 1 : 0) === 1,
    { message: "one of text, gift, gif or photo_id", path: ["text"] },
  );
export type InboxAnswer = z.infer<typeof inboxAnswerSchema>;

export const inboxSentSchema = z.object({ conversation_id: z.number().int(), message: chatMessageSchema });

export const inboxNoteSchema = z.object({ text: z.string().trim().max(INBOX_NOTE_LENGTH) });

export const inboxTypingSchema = z.object({ typing: z.boolean() });

/** From a persona to a member: a like, or a first message (a text). */
export const inboxPersonaLikeSchema = z.object({
  persona_id: z.number().int().positive().max(2_147_483_647),
  member_id: z.number().int().positive().max(2_147_483_647),
});
export const inboxPersonaMessageSchema = inboxPersonaLikeSchema.extend({
  client_id: z.uuid(),
  text: z.string().trim().min(1).max(10_000),
});
export const inboxPersonaLikedSchema = z.object({ member_id: z.number().int(), state: likeStateSchema });

const waitFiguresSchema = z.object({
  answers: z.number().int(),
  median_seconds: z.number().nullable(),
  p90_seconds: z.number().nullable(),
});

export const inboxFiguresQuerySchema = z.object({
  hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 31)
    .default(24),
});

export const inboxFiguresSchema = z.object({
  waiting: z.number().int(),
  /** The oldest wait now, in seconds (null: nobody waits). */
  oldest_wait_seconds: z.number().nullable(),
  hours: z.number().int(),
  all: waitFiguresSchema,
  per_operator: z.array(waitFiguresSchema.extend({ staff_id: z.number().int(), name: z.string() })),
  /** ISO 8601 hours (UTC). */
  per_hour: z.array(waitFiguresSchema.extend({ hour: z.string() })),
});
export type InboxFigures = z.infer<typeof inboxFiguresSchema>;

/** What the operator's live stream (SSE) sends about the claimed conversation. */
export const inboxLiveEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("typing"), typing: z.boolean() }),
  z.object({ type: z.literal("message"), message: chatMessageSchema }),
]);
export type InboxLiveEvent = z.infer<typeof inboxLiveEventSchema>;

const OPERATORS = ["operator"] as const;
const byConversation = { params: inboxConversationParamsSchema } as const;
const ok = z.object({ ok: z.literal(true) });

/**
 * The inbox's staff API (operators; admins may always). The live stream of a claimed conversation,
 * GET /staff/api/inbox/:conversationId/live (server-sent events of InboxLiveEvent), is outside this
 * table: it answers a stream, not JSON, and checks the same session and role.
 */
export const STAFF_INBOX_ENDPOINTS = {
  inboxQueue: staffEndpoint({
    method: "GET",
    path: "/staff/api/inbox",
    roles: OPERATORS,
    query: inboxQueueQuerySchema,
    response: inboxQueueSchema,
  }),
  inboxFigures: staffEndpoint({
    method: "GET",
    path: "/staff/api/inbox/figures",
    roles: OPERATORS,
    query: inboxFiguresQuerySchema,
    response: inboxFiguresSchema,
  }),
  inboxGifs: staffEndpoint({
    method: "GET",
    path: "/staff/api/inbox/gifs",
    roles: OPERATORS,
    query: z.object({ q: z.string().trim().max(100).optional().default("") }),
    response: gifsResponseSchema,
  }),
  inboxConversation: staffEndpoint({
    method: "GET",
    path: "/staff/api/inbox/:conversationId",
    roles: OPERATORS,
    ...byConversation,
    response: inboxConversationSchema,
  }),
  inboxClaim: staffEndpoint({
    method: "POST",
    path: "/staff/api/inbox/:conversationId/claim",
    roles: OPERATORS,
    ...byConversation,
    response: inboxLeaseSchema,
  }),
  inboxRenew: staffEndpoint({
    method: "POST",
    path: "/staff/api/inbox/:conversationId/renew",
    roles: OPERATORS,
    ...byConversation,
    response: inboxLeaseSchema,
  }),
  inboxRelease: staffEndpoint({
    method: "POST",
    path: "/staff/api/inbox/:conversationId/release",
    roles: OPERATORS,
    ...byConversation,
    response: ok,
  }),
  inboxAnswer: staffEndpoint({
    method: "POST",
    path: "/staff/api/inbox/:conversationId/answer",
    roles: OPERATORS,
    ...byConversation,
    body: inboxAnswerSchema,
    response: inboxSentSchema,
  }),
  inboxNote: staffEndpoint({
    method: "PUT",
    path: "/staff/api/inbox/:conversationId/note",
    roles: OPERATORS,
    ...byConversation,
    body: inboxNoteSchema,
    response: z.object({ note: inboxConversationSchema.shape.note }),
  }),
  inboxTyping: staffEndpoint({
    method: "POST",
    path: "/staff/api/inbox/:conversationId/typing",
    roles: OPERATORS,
    ...byConversation,
    body: inboxTypingSchema,
    response: ok,
  }),
  inboxPersonaLike: staffEndpoint({
    method: "POST",
    path: "/staff/api/inbox/persona/like",
    roles: OPERATORS,
    body: inboxPersonaLikeSchema,
    response: inboxPersonaLikedSchema,
  }),
  inboxPersonaMessage: staffEndpoint({
    method: "POST",
    path: "/staff/api/inbox/persona/message",
    roles: OPERATORS,
    body: inboxPersonaMessageSchema,
    response: inboxSentSchema,
  }),
};
