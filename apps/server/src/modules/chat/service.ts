import {
  CHAT_PAGE_SIZE,
  CHAT_PREVIEW_LENGTH,
  CHAT_RETENTION_DAYS,
  type ChatListEntry,
  type ChatMessage,
  type ChatProfile,
  type ChatResponse,
  type ChatsResponse,
  LIMITS,
  type MemberContext,
  type MemberEvent,
  type MessageResponse,
  type SendCosts,
  TYPING_THROTTLE_MS,
} from "@app/contract";
import { and, not, or, type SQL, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { MemberEvents, PendingDelivery } from "../../platform/member-events.ts";
import { unconfirmedUserCondition } from "../accounts/index.ts";
import type { AfterCommit } from "../blocks/index.ts";
import type { CreditService } from "../credits/index.ts";
import type { LikeService } from "../likes/index.ts";
import type { PhotoService } from "../photos/service.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { VisibilityPolicy } from "../visibility/index.ts";
import {
  type CardOf,
  type ChatListRow,
  chatListStatement,
  chatProfile,
  deleteForMember,
  deleteMessagesBefore,
  deletePairConversation,
  findOwnMessage,
  findSide,
  hasHiddenOlder,
  insertMessage,
  lockConversation,
  lockPair,
  lockSender,
  type MessageRow,
  markRead,
  messagePage,
  readUpTo,
  rowsOf,
  type SideRow,
  unreadTotalStatement,
  type Visible,
  writtenCount,
} from "./queries.ts";

const DAY_MS = 24 * 3_600_000;
/** The chat list shows at most this many conversations (the latest). */
export const CHAT_LIST_LIMIT = 500;

type Member = Pick<MemberContext, "userId" | "profileId" | "paid">;

/** What a send costs and allows, from the site's settings (spec §9). */
export interface SendRules {
  /** settings.message_credits. */
  cost: number;
  /** settings.message_length. */
  maxLength: number;
}

export interface SendInput {
  profile_id?: number | undefined;
  conversation_id?: number | undefined;
  client_id: string;
  text?: string | undefined;
  gift?: string | undefined;
  gif?: string | undefined;
}

/**
 * Text chat (spec §1, §3, §4, §6, §8; decision 020): one conversation per pair, messages in server order,
 * each paid in the transaction that stores it, idempotent per client_id; read marks, per-member deletion,
 * the retention window, and the block hook. Events are recorded in each change's transaction and sent
 * after commit.
 */
export class ChatService {
  /** The time the retention window goes by (tests move it). */
  clock: () => Date = () => new Date();

  constructor(
    private readonly db: Db,
    private readonly credits: Pick<CreditService, "change" | "account">,
    private readonly profiles: Pick<ProfileService, "userIdOf" | "cardOf" | "profileIdOf">,
    private readonly photos: Pick<PhotoService, "mainImages" | "urlOf">,
    private readonly visibility: Pick<VisibilityPolicy, "visibleProfile" | "unblocked">,
    private readonly likes: Pick<LikeService, "newLikes">,
    private readonly events: Pick<MemberEvents, "record" | "deliver" | "publishEphemeral">,
  ) {}

  /** Messages created after this are visible (decision 020). */
  private cutoff(): Date {
    return new Date(this.clock().getTime() - CHAT_RETENTION_DAYS * DAY_MS);
  }

  private visibleTo(me: number): Visible {
    return (profileId) => this.visibility.visibleProfile(profileId, me, "either");
  }

  /**
   * A condition on a profile id column: that member's e-mail address is not confirmed yet, which keeps
   * their profile inactive (spec §6: others cannot reply to them until it is).
   */
  private readonly unconfirmed: Visible = (profileId) =>
    and(unconfirmedUserCondition(this.profiles.userIdOf(profileId)), not(this.visibility.visibleProfile(profileId, null))) as SQL;

  private async isUnconfirmed(profileId: number): Promise<boolean> {
    const [row] = await rowsOf<{ ok: boolean }>(this.db, sql`select ${this.unconfirmed(sql`${profileId}::int`)} as "ok"`);
    return row?.ok === true;
  }

  /**
   * Whom `me`'s conversations show: visible profiles, and members who wrote before confirming their
   * address (spec §6: the other member sees the conversation but cannot reply yet), no block either way.
   */
  private listableTo(me: number): Visible {
    return (profileId: SQL) =>
      or(
        this.visibility.visibleProfile(profileId, me, "either"),
        and(this.unconfirmed(profileId), this.visibility.unblocked(profileId, me)),
      ) as SQL;
  }

  private awaiting(meUnconfirmed: boolean, otherUnconfirmed: boolean): "me" | "other" | null {
    if (meUnconfirmed) return "me";
    return otherUnconfirmed ? "other" : null;
  }

  private readonly card: CardOf = (profileId, alias) => this.profiles.cardOf(profileId, alias);

  private async userIdOf(db: DbOrTx, profileId: number): Promise<number | null> {
    const [row] = await rowsOf<{ user_id: number | null }>(
      db,
      sql`select ${this.profiles.userIdOf(sql`${profileId}::int`)} as "user_id"`,
    );
    return row?.user_id == null ? null : Number(row.user_id);
  }

  private async record(tx: DbOrTx, pending: PendingDelivery[], userId: number | null, ...events: MemberEvent[]) {
    if (userId === null) return;
    for (const event of events) pending.push(await this.events.record(tx, userId, event));
  }

  private present(row: MessageRow, me: number): ChatMessage {
    const fromMe = Number(row.sender_id) === me;
    return {
      id: Number(row.id),
      conversation_id: Number(row.conversation_id),
      profile_id: Number(row.sender_id),
      from_me: fromMe,
      kind: "text",
      text: row.text,
      photo: null,
      gift: null,
      gif: null,
      created_at: new Date(row.created_at).toISOString(),
      client_id: fromMe ? row.client_id : null,
    };
  }

  private async thumbs(ids: number[]): Promise<Map<number, string>> {
    const images = await this.photos.mainImages(ids);
    const thumbs = new Map<number, string>();
    for (const [id, image] of images) if (image.status === "active") thumbs.set(id, this.photos.urlOf(image.thumb_filename));
    return thumbs;
  }

  /**
   * POST /api/message.php: stores the message and takes its credits in one transaction, or neither.
   * A retry with the same client_id answers the stored message and charges nothing.
   */
  async send(member: Member, input: SendInput, rules: SendRules): Promise<MessageResponse> {
    const me = member.profileId;
    if (input.gift !== undefined) throw new AppError("gift_unavailable");
    if (input.gif !== undefined) throw new AppError("gif_unavailable");
    const text = input.text ?? "";
    if ([...text].length > rules.maxLength) throw new AppError("message_too_long", { max: rules.maxLength });
    const replay = async (row: MessageRow): Promise<MessageResponse> => ({
      conversation_id: Number(row.conversation_id),
      message: this.present(row, me),
      credits: (await this.credits.account(this.db, member.userId)).credits,
    });
    const earlier = await findOwnMessage(this.db, me, input.client_id);
    if (earlier) return replay(earlier);
    let other: number;
    if (input.conversation_id !== undefined) {
      const side = await findSide(this.db, me, input.conversation_id);
      if (!side) throw new AppError("not_found");
      other = Number(side.other_id);
    } else {
      other = input.profile_id as number;
    }
    if (other === me) throw new AppError("cannot_message_self");
    const outcome = await this.db.transaction(async (tx) => {
      await lockSender(tx, me);
      const again = await findOwnMessage(tx, me, input.client_id);
      if (again) return { replayed: true as const, row: again };
      // Under the pair's lock: a block either committed before (seen here) or waits and deletes what we store.
      await lockPair(tx, me, other);
      const [visible] = await rowsOf<{ ok: boolean }>(tx, sql`select ${this.visibleTo(me)(sql`${other}::int`)} as "ok"`);
      if (!visible?.ok) {
        const [waiting] = await rowsOf<{ ok: boolean }>(tx, sql`select ${this.listableTo(me)(sql`${other}::int`)} as "ok"`);
        throw new AppError(waiting?.ok ? "recipient_unconfirmed" : "profile_unavailable");
      }
      const side = await lockConversation(tx, me, other, this.card);
      if (!member.paid && !side.wrote && (await writtenCount(tx, me)) >= LIMITS.freeConversations) {
        throw new AppError("conversation_limit_reached", { max: LIMITS.freeConversations });
      }
      const debit = await this.credits.change(tx, {
        userId: member.userId,
        delta: -rules.cost,
        reason: "message",
        key: `message:${input.client_id}`,
      });
      if (!debit) throw new AppError("not_enough_credits");
      const row = await insertMessage(tx, {
        conversationId: Number(side.conversation_id),
        sender: me,
        clientId: input.client_id,
        text,
      });
      const pending: PendingDelivery[] = [];
      const conversationId = Number(side.conversation_id);
      await this.record(
        tx,
        pending,
        await this.userIdOf(tx, other),
        { type: "chat.message", conversation_id: conversationId, message: this.present(row, other) },
        { type: "badges.changed" },
      );
      await this.record(tx, pending, member.userId, {
        type: "chat.message",
        conversation_id: conversationId,
        message: this.present(row, me),
      });
      return { replayed: false as const, row, balance: debit.balance, pending };
    });
    if (outcome.replayed) return replay(outcome.row);
    await this.events.deliver(...outcome.pending);
    return {
      conversation_id: Number(outcome.row.conversation_id),
      message: this.present(outcome.row, me),
      credits: outcome.balance,
    };
  }

  /** GET /api/chats.php: the member's conversations, latest first, with the totals of spec §3. */
  async list(member: Member): Promise<ChatsResponse> {
    const me = member.profileId;
    const [rows, newLikes, meUnconfirmed] = await Promise.all([
      rowsOf<ChatListRow & { other_unconfirmed: boolean }>(
        this.db,
        chatListStatement(
          me,
          this.listableTo(me),
          this.unconfirmed,
          this.card,
          this.cutoff(),
          CHAT_PREVIEW_LENGTH,
          CHAT_LIST_LIMIT,
        ),
      ),
      this.likes.newLikes(me),
      this.isUnconfirmed(me),
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
              kind: "text",
              text: row.last_text,
              from_me: Number(row.last_sender) === me,
              created_at: new Date(row.last_at).toISOString(),
            },
      updated: new Date(row.updated_at).toISOString(),
      awaiting_confirmation: this.awaiting(meUnconfirmed, row.other_unconfirmed),
    }));
    return {
      chats,
      totals: {
        messages: chats.length,
        unread_messages: chats.reduce((sum, chat) => sum + chat.num_unread_messages, 0),
        new_likes: newLikes,
      },
    };
  }

  private profileOf(id: number, row: { name: string; fictional: boolean }, thumbs: Map<number, string>): ChatProfile {
    const thumb = thumbs.get(id);
    return { id, name: row.name, fictional: row.fictional, main_image: thumb ? { thumb_url: thumb } : null };
  }

  /** The unread badge (the badges module asks): unread messages in the member's listed conversations. */
  async unreadMessages(me: number): Promise<number> {
    const [row] = await rowsOf<{ n: number }>(this.db, unreadTotalStatement(me, this.listableTo(me), this.cutoff()));
    return Number(row?.n ?? 0);
  }

  /** The member's side of a conversation they may open (the other profile visible to them), or not_found. */
  private async openable(
    me: number,
    id: number,
  ): Promise<{ side: SideRow; profile: { name: string; fictional: boolean; unconfirmed: boolean } }> {
    const side = await findSide(this.db, me, id);
    if (!side || Number(side.last_seq) <= Number(side.deleted_seq)) throw new AppError("not_found");
    const profile = await chatProfile(this.db, Number(side.other_id), this.listableTo(me), this.unconfirmed, this.card);
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
    const cutoff = this.cutoff();
    if (before === undefined) await this.read(member, id, cutoff);
    const [rows, olderHidden, readMark, thumbs, meUnconfirmed, account] = await Promise.all([
      messagePage(this.db, side, cutoff, before, CHAT_PAGE_SIZE + 1),
      hasHiddenOlder(this.db, side, cutoff),
      readUpTo(this.db, id, me),
      this.thumbs([Number(side.other_id)]),
      this.isUnconfirmed(me),
      this.credits.account(this.db, member.userId),
    ]);
    const page = rows.slice(0, CHAT_PAGE_SIZE).reverse();
    return {
      conversation: { id },
      profile: this.profileOf(Number(side.other_id), profile, thumbs),
      messages: page.map((row) => this.present(row, me)),
      has_more: rows.length > CHAT_PAGE_SIZE,
      older_hidden: olderHidden,
      read_up_to: readMark,
      awaiting_confirmation: this.awaiting(meUnconfirmed, profile.unconfirmed),
      costs,
      credits: account.credits,
    };
  }

  private async read(member: Member, id: number, cutoff: Date): Promise<void> {
    const pending = await this.db.transaction(async (tx) => {
      const pending: PendingDelivery[] = [];
      const moved = await markRead(tx, member.profileId, id, cutoff, (profileId) => this.profiles.userIdOf(profileId));
      if (!moved) return pending;
      await this.record(tx, pending, moved.other_user === null ? null : Number(moved.other_user), {
        type: "chat.read",
        conversation_id: id,
        message_id: moved.message_id,
      });
      if (moved.cleared > 0) await this.record(tx, pending, member.userId, { type: "badges.changed" });
      return pending;
    });
    await this.events.deliver(...pending);
  }

  /**
   * DELETE /api/chat.php (decision 020): the conversation leaves the member's list and its messages until
   * now leave their view; the other member keeps theirs. A new message brings it back. Idempotent.
   */
  async remove(member: Member, id: number): Promise<{ id: number }> {
    const cutoff = this.cutoff();
    const pending = await this.db.transaction(async (tx) => {
      const pending: PendingDelivery[] = [];
      const deleted = await deleteForMember(tx, member.profileId, id, cutoff);
      if (!deleted) throw new AppError("not_found");
      await this.record(tx, pending, member.userId, { type: "chat.deleted", conversation_id: id });
      if (deleted.unread > 0) await this.record(tx, pending, member.userId, { type: "badges.changed" });
      return pending;
    });
    await this.events.deliver(...pending);
    return { id };
  }

  /** The block hook (spec §6: chats are deleted): the pair's conversation goes, in the block's transaction. */
  /** When each member's last `typing: true` per conversation was forwarded (member:conversation → ms). */
  private readonly typingForwarded = new Map<string, number>();

  /**
   * The WebSocket frame `typing` (spec §2's typing indicator): tells the other member of conversation
   * `conversationId` that `userId` started or stopped typing, as an ephemeral event (never stored).
   * Starts are forwarded at most every TYPING_THROTTLE_MS per member and conversation, whatever the
   * client sends. Answers false when `userId` is not a member of that conversation (nothing is sent).
   */
  async typing(userId: number, conversationId: number, typing: boolean): Promise<boolean> {
    // Throttled before any await, so that the order of the member's frames decides what is dropped.
    const key = `${userId}:${conversationId}`;
    const now = this.clock().getTime();
    if (typing) {
      const last = this.typingForwarded.get(key);
      if (last !== undefined && now - last < TYPING_THROTTLE_MS) return true;
      // A bound on memory: entries are only useful for a few seconds.
      if (this.typingForwarded.size > 10_000) this.typingForwarded.clear();
      this.typingForwarded.set(key, now);
    } else {
      this.typingForwarded.delete(key);
    }
    const [row] = await rowsOf<{ other_user: number | null }>(
      this.db,
      sql`select ${this.profiles.userIdOf(sql`"cm"."other_id"`)} as "other_user" from "conversation_members" as "cm"
          where "cm"."conversation_id" = ${conversationId} and "cm"."profile_id" = ${this.profiles.profileIdOf(sql`${userId}::int`)}`,
    );
    if (!row?.other_user) return false;
    await this.events.publishEphemeral(Number(row.other_user), { type: "chat.typing", conversation_id: conversationId, typing });
    return true;
  }

  /**
   * Deletes the messages past the retention window (the daily job "chat.purge-expired"), in batches so
   * that no statement holds many rows at once; answers how many went. The queries already hide them:
   * this keeps the promise of spec §8 in the database too, not only on the screen.
   */
  async purgeExpired(batch = 5_000): Promise<number> {
    const cutoff = this.cutoff();
    let total = 0;
    for (;;) {
      const deleted = await deleteMessagesBefore(this.db, cutoff, batch);
      total += deleted;
      if (deleted < batch) return total;
    }
  }

  readonly onBlock = async (tx: Tx, blocker: number, blocked: number): Promise<AfterCommit | undefined> => {
    await lockPair(tx, blocker, blocked);
    const deleted = await deletePairConversation(tx, blocker, blocked, this.cutoff());
    if (!deleted) return undefined;
    const pending: PendingDelivery[] = [];
    for (const profileId of [blocker, blocked]) {
      if (!deleted.unread.has(profileId)) continue;
      const userId = await this.userIdOf(tx, profileId);
      await this.record(tx, pending, userId, { type: "chat.deleted", conversation_id: deleted.id });
      if ((deleted.unread.get(profileId) ?? 0) > 0) await this.record(tx, pending, userId, { type: "badges.changed" });
    }
    return () => this.events.deliver(...pending);
  };
}
