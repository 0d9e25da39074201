import {
  CHAT_PAGE_SIZE,
  CHAT_PREVIEW_LENGTH,
  type ChatListEntry,
  type ChatProfile,
  type ChatResponse,
  type ChatsResponse,
  LIMITS,
  type MemberContext,
  type MessageKind,
  type SendCosts,
} from "@app/contract";
import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { MemberEvents, PendingDelivery } from "../../platform/member-events.ts";
import type { CreditService } from "../credits/index.ts";
import type { LikeService } from "../likes/index.ts";
import type { PhotoService } from "../photos/service.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { ChatAudience } from "./audience.ts";
import { presentMessage } from "./presenting.ts";
import {
  type ChatListRow,
  chatListStatement,
  chatProfile,
  deleteForMember,
  findSide,
  hasHiddenOlder,
  markRead,
  messagePage,
  noticeOf,
  readUpTo,
  receivedMessage,
  type SideRow,
  staleUnread,
  unreadTotalStatement,
} from "./queries.ts";
import type { RetentionWindow } from "./retention.ts";

/** The chat list shows at most this many conversations (the latest). */
export const CHAT_LIST_LIMIT = 500;

type Member = Pick<MemberContext, "userId" | "profileId">;

/**
 * Reading (spec §3, §8; decision 020): the chat list with its totals, a conversation's pages, read
 * marks and per-member deletion. Events are recorded in each change's transaction and sent after commit.
 */
/** A received message as reported (issue #27). */
export interface ReportedMessage {
  id: number;
  senderProfileId: number;
  kind: MessageKind;
  text: string;
  giftId: string | null;
  gifUrl: string | null;
  /** The chat photo's storage key (the file outlives the message only as long as retention keeps it). */
  photoKey: string | null;
  createdAt: string;
}

export class ChatReading {
  constructor(
    private readonly db: Db,
    private readonly window: RetentionWindow,
    private readonly audience: ChatAudience,
    private readonly credits: Pick<CreditService, "account">,
    private readonly profiles: Pick<ProfileService, "userIdOf">,
    private readonly photos: Pick<PhotoService, "mainImages" | "urlOf">,
    private readonly likes: Pick<LikeService, "newLikes">,
    private readonly events: Pick<MemberEvents, "record" | "deliver">,
  ) {}

  private async thumbs(ids: number[]): Promise<Map<number, string>> {
    const images = await this.photos.mainImages(ids);
    const thumbs = new Map<number, string>();
    for (const [id, image] of images) if (image.status === "active") thumbs.set(id, this.photos.urlOf(image.thumb_filename));
    return thumbs;
  }

  private profileOf(id: number, row: { name: string; fictional: boolean }, thumbs: Map<number, string>): ChatProfile {
    const thumb = thumbs.get(id);
    return { id, name: row.name, fictional: row.fictional, main_image: thumb ? { thumb_url: thumb } : null };
  }

  /**
   * A message `me` received, as a report keeps it (issue #27): its sender, kind, text and media; null
   * when `me` did not receive it or no longer sees it.
   */
  async received(me: number, messageId: number): Promise<ReportedMessage | null> {
    const row = await receivedMessage(this.db, me, messageId, this.window.cutoff());
    if (!row) return null;
    return {
      id: Number(row.id),
      senderProfileId: Number(row.sender_id),
      kind: row.kind,
      text: row.text,
      giftId: row.gift_id,
      gifUrl: row.gif?.url ?? null,
      photoKey: row.photo_key,
      createdAt: new Date(row.created_at).toISOString(),
    };
  }

  /**
   * For a notification of message `messageId` in `me`'s conversation `id` (issue #28): the other
   * profile, the unread messages and the newest of them, and whether `messageId` is the first message
   * `me` received there (a new conversation). Null when `me` is not in it.
   */
  async notice(
    me: number,
    id: number,
    messageId: number,
  ): Promise<{ otherId: number; unread: number; latestUnread: number | null; first: boolean } | null> {
    const row = await noticeOf(this.db, me, id, messageId, this.window.cutoff());
    if (!row) return null;
    return {
      otherId: Number(row.other_id),
      unread: Number(row.unread),
      latestUnread: row.latest_unread === null ? null : Number(row.latest_unread),
      first: !row.earlier_received,
    };
  }

  /** Members with messages unread since before `olderThan` (the daily reminder), paged by profile id. */
  async staleUnread(olderThan: Date, afterProfile: number, limit: number) {
    const rows = await staleUnread(this.db, { olderThan, cutoff: this.window.cutoff(), afterProfile, limit });
    return rows.map((r) => ({ profileId: Number(r.profile_id), unread: Number(r.unread), batch: Number(r.batch) }));
  }

  /** GET /api/chats.php: the member's conversations, latest first, with the totals of spec §3. */
  async list(member: Member): Promise<ChatsResponse> {
    const me = member.profileId;
    const { audience } = this;
    const [rows, newLikes, meUnconfirmed, [limit]] = await Promise.all([
      rowsOf<ChatListRow & { other_unconfirmed: boolean }>(
        this.db,
        chatListStatement(
          me,
          audience.listableTo(me),
          audience.unconfirmed,
          audience.card,
          this.window.cutoff(),
          CHAT_PREVIEW_LENGTH,
          CHAT_LIST_LIMIT,
        ),
      ),
      this.likes.newLikes(me),
      audience.isUnconfirmed(this.db, me),
      // The free conversation limit as the send checks it (chat_within_free_limit).
      rowsOf<{ paid: boolean; written_to: number[] }>(
        this.db,
        sql`select credits_paid(${member.userId}::int) as "paid",
                   coalesce(array(select x."other_id" from "conversation_members" x
                                  where x."profile_id" = ${me}::int and x."wrote" order by x."other_id"), '{}') as "written_to"`,
      ),
    ]);
    const thumbs = await this.thumbs(rows.map((row) => Number(row.other_id)));
    const chats: ChatListEntry[] = rows.map((row) => ({
      conversation: { id: Number(row.id) },
      profile: this.profileOf(Number(row.other_id), row, thumbs),
      num_unread_messages: Number(row.unread),
      last_message:
        row.last_at === null || row.last_text === null
          ? null
          : {
              kind: row.last_kind ?? "text",
              text: row.last_text,
              from_me: Number(row.last_sender) === me,
              created_at: new Date(row.last_at).toISOString(),
            },
      updated: new Date(row.updated_at).toISOString(),
      awaiting_confirmation: audience.awaiting(meUnconfirmed, row.other_unconfirmed),
    }));
    return {
      chats,
      totals: {
        messages: chats.length,
        unread_messages: chats.reduce((sum, chat) => sum + chat.num_unread_messages, 0),
        new_likes: newLikes,
      },
      conversation_limit: limit?.paid
        ? null
        : { max: LIMITS.freeConversations, written_to: (limit?.written_to ?? []).map(Number) },
    };
  }

  /** The unread badge (the badges module asks): unread messages in the member's listed conversations. */
  async unreadMessages(me: number): Promise<number> {
    const [row] = await rowsOf<{ n: number }>(
      this.db,
      unreadTotalStatement(me, this.audience.listableTo(me), this.window.cutoff()),
    );
    return Number(row?.n ?? 0);
  }

  /** The member's side of a conversation they may open (the other profile visible to them), or not_found. */
  private async openable(
    me: number,
    id: number,
  ): Promise<{ side: SideRow; profile: { name: string; fictional: boolean; unconfirmed: boolean } }> {
    const side = await findSide(this.db, me, id);
    if (!side || Number(side.last_seq) <= Number(side.deleted_seq)) throw new AppError("not_found");
    const { audience } = this;
    const profile = await chatProfile(
      this.db,
      Number(side.other_id),
      audience.listableTo(me),
      audience.unconfirmed,
      audience.card,
    );
    if (!profile) throw new AppError("not_found");
    return { side, profile };
  }

  /**
   * GET /api/chat.php: one page of a conversation, newest last. The first page opens it: its unread count
   * becomes 0 and the other member hears how far it was read.
   */
  async open(member: Member, id: number, before: number | undefined, costs: SendCosts): Promise<ChatResponse> {
    const me = member.profileId;
    const { side, profile } = await this.openable(me, id);
    const cutoff = this.window.cutoff();
    if (before === undefined) await this.read(member, id, cutoff);
    const [rows, olderHidden, readMark, thumbs, meUnconfirmed, account] = await Promise.all([
      messagePage(this.db, side, cutoff, before, CHAT_PAGE_SIZE + 1),
      hasHiddenOlder(this.db, side, cutoff),
      readUpTo(this.db, id, me),
      this.thumbs([Number(side.other_id)]),
      this.audience.isUnconfirmed(this.db, me),
      this.credits.account(this.db, member.userId),
    ]);
    const page = rows.slice(0, CHAT_PAGE_SIZE).reverse();
    return {
      conversation: { id },
      profile: this.profileOf(Number(side.other_id), profile, thumbs),
      messages: page.map((row) => presentMessage(row, me)),
      has_more: rows.length > CHAT_PAGE_SIZE,
      older_hidden: olderHidden,
      read_up_to: readMark,
      awaiting_confirmation: this.audience.awaiting(meUnconfirmed, profile.unconfirmed),
      costs,
      credits: account.credits,
    };
  }

  private async read(member: Member, id: number, cutoff: Date): Promise<void> {
    const pending = await this.db.transaction(async (tx) => {
      const pending: PendingDelivery[] = [];
      const moved = await markRead(tx, member.profileId, id, cutoff, (profileId) => this.profiles.userIdOf(profileId));
      if (!moved) return pending;
      if (moved.other_user !== null) {
        pending.push(
          await this.events.record(tx, Number(moved.other_user), {
            type: "chat.read",
            conversation_id: id,
            message_id: moved.message_id,
          }),
        );
      }
      if (moved.cleared > 0) pending.push(await this.events.record(tx, member.userId, { type: "badges.changed" }));
      return pending;
    });
    await this.events.deliver(...pending);
  }

  /**
   * DELETE /api/chat.php (decision 020): the conversation leaves the member's list and its messages until
   * now leave their view; the other member keeps theirs. A new message brings it back. Idempotent.
   */
  async remove(member: Member, id: number): Promise<{ id: number }> {
    const cutoff = this.window.cutoff();
    const pending = await this.db.transaction(async (tx) => {
      const deleted = await deleteForMember(tx, member.profileId, id, cutoff);
      if (!deleted) throw new AppError("not_found");
      const pending = [await this.events.record(tx, member.userId, { type: "chat.deleted", conversation_id: id })];
      if (deleted.unread > 0) pending.push(await this.events.record(tx, member.userId, { type: "badges.changed" }));
      return pending;
    });
    await this.events.deliver(...pending);
    return { id };
  }
}
