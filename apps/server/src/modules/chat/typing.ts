import { TYPING_THROTTLE_MS } from "@app/contract";
import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../platform/db/index.ts";
import type { MemberEvents } from "../../platform/member-events.ts";
import type { ProfileService } from "../profiles/service.ts";

/** How long a typing frame's recipient is remembered (see ChatTyping.recipients). */
export const TYPING_RECIPIENT_TTL_MS = 5_000;

/** The typing indicator (spec §2): ephemeral events to the other member of a conversation, never stored. */
export class ChatTyping {
  /** The time the throttle goes by. */
  clock: () => number = () => Date.now();
  /** When each member's last `typing: true` per conversation was forwarded (member:conversation → ms). */
  private readonly forwarded = new Map<string, number>();
  /**
   * Whom a member's typing in a conversation goes to (member:conversation → the other user and when it
   * was looked up), for TYPING_RECIPIENT_TTL_MS: typing frames come every 2 s while someone types, and
   * one look-up per frame was the typing fan-out's cost (bench:chat). A block clears this node's entries
   * of the conversation; another node may forward typing for at most the TTL after a block or deletion.
   */
  private readonly recipients = new Map<string, { otherUser: number | null; at: number; conversationId: number }>();

  constructor(
    private readonly db: Db,
    private readonly profiles: Pick<ProfileService, "userIdOf" | "profileIdOf">,
    private readonly events: Pick<MemberEvents, "publishEphemeral">,
  ) {}

  /**
   * The WebSocket frame `typing`: tells the other member of conversation `conversationId` that `userId`
   * started or stopped typing. Starts are forwarded at most every TYPING_THROTTLE_MS per member and
   * conversation, whatever the client sends. Answers false when `userId` is not a member of that
   * conversation (nothing is sent).
   */
  async typing(userId: number, conversationId: number, typing: boolean): Promise<boolean> {
    // Throttled before any await, so that the order of the member's frames decides what is dropped.
    const key = `${userId}:${conversationId}`;
    const now = this.clock();
    if (typing) {
      const last = this.forwarded.get(key);
      if (last !== undefined && now - last < TYPING_THROTTLE_MS) return true;
      // A bound on memory: entries are only useful for a few seconds.
      if (this.forwarded.size > 10_000) this.forwarded.clear();
      this.forwarded.set(key, now);
    } else {
      this.forwarded.delete(key);
    }
    let recipient = this.recipients.get(key);
    if (!recipient || now - recipient.at > TYPING_RECIPIENT_TTL_MS) {
      const [row] = await rowsOf<{ other_user: number | null }>(
        this.db,
        sql`select ${this.profiles.userIdOf(sql`"cm"."other_id"`)} as "other_user" from "conversation_members" as "cm"
            where "cm"."conversation_id" = ${conversationId} and "cm"."profile_id" = ${this.profiles.profileIdOf(sql`${userId}::int`)}`,
      );
      recipient = { otherUser: row?.other_user ? Number(row.other_user) : null, at: now, conversationId };
      if (this.recipients.size > 10_000) this.recipients.clear();
      this.recipients.set(key, recipient);
    }
    if (recipient.otherUser === null) return false;
    await this.events.publishEphemeral(recipient.otherUser, { type: "chat.typing", conversation_id: conversationId, typing });
    return true;
  }

  /** A conversation went (a block): its recipients are forgotten on this node. */
  forget(conversationId: number): void {
    for (const [key, entry] of this.recipients) if (entry.conversationId === conversationId) this.recipients.delete(key);
  }
}
