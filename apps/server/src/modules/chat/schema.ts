import { MESSAGE_KINDS } from "@app/contract";
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { profiles } from "../profiles/schema.ts";

/**
 * One conversation per pair of profiles (decision 020): `profile_a` < `profile_b`, unique. `last_seq` is
 * the server order of its messages, taken under this row's lock; `fictional` says whether either side is
 * a fictional profile (operators answer those: modules/operators). Rows go with either profile.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: serial("id").primaryKey(),
    profileA: integer("profile_a")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    profileB: integer("profile_b")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    fictional: boolean("fictional").notNull().default(false),
    /** The sequence number of the latest message (0: none yet). */
    lastSeq: integer("last_seq").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The latest message's time: the chat list's order. */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * A conversation with a fictional profile waiting for an operator's answer (issue #27): the time of
     * the member's first message since the profile last wrote; null once it answered (chat_send_v2
     * keeps it, migration 0028). Always null in conversations between members.
     */
    waitingSince: timestamp("waiting_since", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("conversations_pair").on(t.profileA, t.profileB),
    // Deleting a profile finds the conversations where it is the second of the pair.
    index("conversations_profile_b").on(t.profileB),
    // The conversations with a fictional profile (for the operator console). Not on updated_at: an
    // indexed column changed by every message would make each message's update of its conversation
    // write an entry into every index (no heap-only update; decision 020, "Write cost").
    index("conversations_fictional").on(t.id).where(sql`${t.fictional}`),
    // The operators' queue, oldest waiting first (issue #27). Changed only when a member starts waiting
    // or an operator answers, never by a message between members (their updates stay heap-only).
    index("conversations_waiting").on(t.waitingSince, t.id).where(sql`${t.waitingSince} is not null`),
    check("conversations_ordered_pair", sql`${t.profileA} < ${t.profileB}`),
  ],
);

/**
 * Each member's side of a conversation: the other profile, how far they have read, up to which message
 * they deleted it (their list and view start after it), and whether they have written in it (free
 * members may write in LIMITS.freeConversations conversations).
 */
export const conversationMembers = pgTable(
  "conversation_members",
  {
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** The other profile (no foreign key of its own: the conversation goes with either profile). */
    otherId: integer("other_id").notNull(),
    /** The sequence number of the latest message this member has read. */
    readSeq: integer("read_seq").notNull().default(0),
    /** Deleted from this member's list up to this sequence number (0: never). */
    deletedSeq: integer("deleted_seq").notNull().default(0),
    /** This member has sent a message here (counts towards a free member's conversations). */
    wrote: boolean("wrote").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.profileId, t.conversationId] }),
    index("conversation_members_wrote").on(t.profileId).where(sql`${t.wrote}`),
    // Deleting a conversation (a block, a profile) finds its sides.
    index("conversation_members_conversation").on(t.conversationId),
  ],
);

/**
 * What a GIF message shows, stored when it is sent (a provider's GIF may leave its catalogue later):
 * same-origin paths only, the provider's media go through our proxy.
 */
export interface StoredGif {
  id: string;
  title: string;
  url: string;
  preview_url: string;
  width: number;
  height: number;
}

/**
 * Messages in server order (`seq` per conversation); `(sender_id, client_id)` makes a retried send
 * idempotent. `kind` says what it carries besides the text: a photo (a file of the photos module's
 * storage, served to the pair only), a gift of the catalogue, or a GIF.
 */
export const messages = pgTable(
  "messages",
  {
    id: serial("id").primaryKey(),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    senderId: integer("sender_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    clientId: uuid("client_id").notNull(),
    kind: text("kind", { enum: MESSAGE_KINDS }).notNull().default("text"),
    text: text("text").notNull(),
    /** GIFT_IDS; set for kind gift. */
    giftId: text("gift_id"),
    gif: jsonb("gif").$type<StoredGif>(),
    /** The photos module's storage key of a chat photo (kind photo), and its size after processing. */
    photoKey: text("photo_key"),
    photoWidth: integer("photo_width"),
    photoHeight: integer("photo_height"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("messages_kind", sql`${t.kind} in ('text', 'photo', 'gift', 'gif')`),
    check(
      "messages_kind_content",
      sql`(${t.kind} = 'gift') = (${t.giftId} is not null) and (${t.kind} = 'gif') = (${t.gif} is not null)
        and (${t.kind} = 'photo') = (${t.photoKey} is not null)`,
    ),
    uniqueIndex("messages_conversation_seq").on(t.conversationId, t.seq),
    uniqueIndex("messages_sender_client").on(t.senderId, t.clientId),
    // The daily purge of messages past the retention window (ChatService.purgeExpired). BRIN: rows are
    // appended in time order, and an insert into the last pages leaves it as it is.
    index("messages_created").using("brin", t.createdAt),
  ],
);
