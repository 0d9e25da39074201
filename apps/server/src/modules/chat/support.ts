import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/index.ts";
import { conversationMembers, conversations, messages } from "./schema.ts";

/** One of a member's conversations as support lists it (issue #27). */
export interface SupportConversation {
  conversationId: number;
  otherProfileId: number;
  fictional: boolean;
  messages: number;
  updatedAt: Date;
}

export interface SupportMessage {
  id: number;
  seq: number;
  senderProfileId: number;
  kind: string;
  text: string;
  giftId: string | null;
  createdAt: Date;
}

/**
 * The chat module's part of support: a member's conversations and their messages, read only after
 * the support module has checked a recorded reason. Conversations a member deleted are still shown
 * (support may need them); messages past the retention window are already gone.
 */
export class ChatSupport {
  constructor(private readonly db: Db) {}

  /** The member's conversations, latest first. */
  async conversationsOf(profileId: number, limit: number): Promise<SupportConversation[]> {
    const rows = await this.db
      .select({
        conversationId: conversations.id,
        otherProfileId: conversationMembers.otherId,
        fictional: conversations.fictional,
        messages: conversations.lastSeq,
        updatedAt: conversations.updatedAt,
      })
      .from(conversationMembers)
      .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
      .where(eq(conversationMembers.profileId, profileId))
      .orderBy(desc(conversations.updatedAt), desc(conversations.id))
      .limit(limit);
    return rows;
  }

  /** Whether this conversation is one of the profile's (so a staff request cannot name another's). */
  async isMemberOf(profileId: number, conversationId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: conversationMembers.conversationId })
      .from(conversationMembers)
      .where(and(eq(conversationMembers.profileId, profileId), eq(conversationMembers.conversationId, conversationId)))
      .limit(1);
    return !!row;
  }

  /** The latest `limit` messages of a conversation, oldest first. */
  async messagesOf(conversationId: number, limit: number): Promise<SupportMessage[]> {
    const rows = await this.db
      .select({
        id: messages.id,
        seq: messages.seq,
        senderProfileId: messages.senderId,
        kind: messages.kind,
        text: messages.text,
        giftId: messages.giftId,
        createdAt: messages.createdAt,
      })
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(desc(messages.seq))
      .limit(limit);
    return rows.reverse();
  }
}
