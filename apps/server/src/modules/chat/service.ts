import { createHash } from "node:crypto";
import {
  CHAT_PAGE_SIZE,
  CHAT_PREVIEW_LENGTH,
  CHAT_RETENTION_DAYS,
  type ChatListEntry,
  type ChatMessage,
  type ChatProfile,
  type ChatResponse,
  type ChatsResponse,
  GIFT_IDS,
  type Gif,
  type Gift,
  type GiftId,
  LIMITS,
  type MemberContext,
  type MemberEvent,
  type MessageResponse,
  type SendCosts,
  TYPING_THROTTLE_MS,
} from "@app/contract";
import { and, not, or, type SQL, sql } from "drizzle-orm";
import { type CompiledFragment, compileFragment } from "../../platform/db/compile.ts";
import type { Db, DbOrTx, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { MemberEvents, PendingDelivery } from "../../platform/member-events.ts";
import { type AccountService, unconfirmedUserCondition } from "../accounts/index.ts";
import type { AfterCommit } from "../blocks/index.ts";
import type { CreditService } from "../credits/index.ts";
import type { LikeService } from "../likes/index.ts";
import type { PhotoService } from "../photos/service.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { VisibilityPolicy } from "../visibility/index.ts";
import type { GifCatalogue } from "./gifs/gif-source.ts";
import {
  type CardOf,
  type ChatListRow,
  type CheckedWrite,
  chatListStatement,
  chatProfile,
  checkAndWritePaidMessage,
  deleteForMember,
  deleteMessagesBefore,
  deletePairConversation,
  findOrMakeConversation,
  findOwnMessageWith,
  findSide,
  hasHiddenOlder,
  lockPair,
  lockSenderAndPair,
  MESSAGE_WRITTEN,
  type MessageContent,
  type MessageRow,
  markRead,
  messagePage,
  NEXT_MESSAGE_COLUMNS,
  newMessageRow,
  otherSide,
  otherSideColumn,
  pairConversation,
  pairPhotoKeys,
  profilePhotoKeys,
  readUpTo,
  rowsOf,
  type SideRow,
  sendPrecheck,
  type UnsentMessage,
  unreadTotalStatement,
  type Visible,
  visiblePhotoKey,
} from "./queries.ts";
import { SendFunction } from "./send-function.ts";

const DAY_MS = 24 * 3_600_000;
/** How long a typing frame's recipient is remembered (see ChatService.typingRecipients). */
export const TYPING_RECIPIENT_TTL_MS = 5_000;
/** The chat list shows at most this many conversations (the latest). */
export const CHAT_LIST_LIMIT = 500;

/**
 * What store() is asked: who sends to whom, what, at what cost; `sessionKey` is a session to check under
 * the send's locks (a socket's frames; null for none valid), undefined when the caller checked it.
 */
interface StoreRequest {
  member: Member;
  recipient: Recipient;
  clientId: string;
  content: MessageContent;
  cost: number;
  sessionKey?: string | null | undefined;
}

/** What store() did: found the message of an earlier send with this client_id, or stored a new one. */
type Stored =
  | { replayed: true; row: MessageRow }
  | { replayed: false; row: MessageRow; balance: number; pending: PendingDelivery[] };

/** The ledger's reason and idempotency key of a send's debit. */
function debitOf(clientId: string, content: MessageContent): { reason: string; key: string } {
  return { reason: content.kind === "gift" || content.kind === "photo" ? content.kind : "message", key: `message:${clientId}` };
}

/** Who sends: the ids are enough (whether they are premium is read under the send's locks). */
type Member = Pick<MemberContext, "userId" | "profileId">;

/** What a send costs and allows, from the site's settings (spec §9). */
export interface SendRules {
  /** Credits per kind: message_credits (texts, GIFs), gift_credits, photo_credits. */
  costs: Pick<SendCosts, "message" | "gift" | "gif" | "photo">;
  /** settings.message_length (a text, or a gift's text). */
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

/** Where a chat photo is served: checked per request (GET /media/chat-photos/<message id>.jpg). */
export const CHAT_PHOTO_PATH = "/media/chat-photos/";
/** Where the gift images are served (files of this module, cached long). */
export const GIFT_IMAGE_PATH = "/media/gifts/";

/** A signup message to deliver (the accounts module keeps them until the address is confirmed). */
export interface SignupMessage {
  id: number;
  userId: number;
  toProfileId: number;
  text: string;
}

/** Whom a send goes to: a profile, or the other side of one of the sender's conversations. */
type Recipient = { profileId: number } | { conversationId: number };

const isGiftId = (id: string): id is GiftId => (GIFT_IDS as readonly string[]).includes(id);

/** A UUID made from a name (SHA-1, RFC 4122 version 5 layout): the same signup message, the same client_id. */
function nameUuid(name: string): string {
  const hash = createHash("sha1").update(`chat:${name}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Chat (spec §1, §3, §4, §6, §8; decision 020): one conversation per pair, messages in server order,
 * each (a text, photo, gift or GIF) paid in the transaction that stores it, idempotent per client_id;
 * read marks, per-member deletion, the retention window, the block hook and the signup message. Events are recorded in each change's transaction and sent
 * after commit.
 */
export class ChatService {
  /** The time the retention window goes by (tests move it). */
  clock: () => Date = () => new Date();

  constructor(
    private readonly db: Db,
    private readonly credits: Pick<
      CreditService,
      "account" | "lockExpression" | "keyedDebit" | "keyedDebitAnswer" | "memberColumns"
    >,
    private readonly profiles: Pick<ProfileService, "userIdOf" | "cardOf" | "profileIdOf">,
    private readonly photos: Pick<PhotoService, "mainImages" | "urlOf" | "storeChatPhoto" | "chatPhoto" | "deleteChatPhotos">,
    private readonly visibility: Pick<VisibilityPolicy, "visibleProfile" | "unblocked">,
    private readonly likes: Pick<LikeService, "newLikes">,
    private readonly events: Pick<
      MemberEvents,
      "record" | "recordLent" | "recordLentExpressions" | "deliver" | "publishEphemeral"
    >,
    private readonly gifs: Pick<GifCatalogue, "search" | "find">,
    private readonly sessions: Pick<AccountService, "sessionStands">,
    private readonly log: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void } = console,
  ) {}

  /** Messages created after this are visible (decision 020). */
  private cutoff(): Date {
    return new Date(this.clock().getTime() - CHAT_RETENTION_DAYS * DAY_MS);
  }

  /**
   * The visibility policy's condition "`me` may write to `other`" for a send, compiled once and bound per send: built from the visibility
   * policy's nested helpers on every send, this condition alone cost about 0.07 ms of a node's CPU per
   * message in bench:chat (decision 020, "One round trip, measured").
   */
  private sendVisibility: CompiledFragment<"me" | "other"> | undefined;
  private visibleForSend(me: number, other: number): SQL {
    this.sendVisibility ??= compileFragment<"me" | "other">(this.db, (p) =>
      this.visibility.visibleProfile(sql`${p("other")}::int`, p("me"), "either"),
    );
    return this.sendVisibility.bind({ me, other });
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

  /** The `chat.message` event of a message as `viewer` sees it. */
  private messageEvent(row: UnsentMessage, viewer: number) {
    return { type: "chat.message", conversation_id: Number(row.conversation_id), message: this.present(row, viewer) } as const;
  }

  private present(row: UnsentMessage, me: number): ChatMessage {
    const fromMe = Number(row.sender_id) === me;
    const photo =
      row.kind === "photo" && row.photo_width && row.photo_height
        ? { url: `${CHAT_PHOTO_PATH}${Number(row.id)}.jpg`, width: Number(row.photo_width), height: Number(row.photo_height) }
        : null;
    const gift = row.kind === "gift" && row.gift_id && isGiftId(row.gift_id) ? this.giftOf(row.gift_id) : null;
    return {
      id: Number(row.id),
      conversation_id: Number(row.conversation_id),
      profile_id: Number(row.sender_id),
      from_me: fromMe,
      kind: row.kind,
      text: row.text,
      photo,
      gift,
      gif: row.kind === "gif" ? row.gif : null,
      created_at: new Date(row.created_at).toISOString(),
      client_id: fromMe ? row.client_id : null,
    };
  }

  private giftOf(id: GiftId): Omit<Gift, "credits"> {
    return { id, image_url: `${GIFT_IMAGE_PATH}${id}.svg` };
  }

  /** GET /api/gifts.php: the catalogue in the picker's order, each at this site's gift_credits. */
  gifts(credits: number): { gifts: Gift[] } {
    return { gifts: GIFT_IDS.map((id) => ({ ...this.giftOf(id), credits })) };
  }

  /** GET /api/gifs.php: GIFs for `q` in the member's gifLocale, from the configured source. */
  searchGifs(q: string, gifLocale: string | undefined): Promise<{ gifs: Gif[]; provider: "local" | "giphy" | "tenor" }> {
    return this.gifs.search(q, gifLocale);
  }

  private async thumbs(ids: number[]): Promise<Map<number, string>> {
    const images = await this.photos.mainImages(ids);
    const thumbs = new Map<number, string>();
    for (const [id, image] of images) if (image.status === "active") thumbs.set(id, this.photos.urlOf(image.thumb_filename));
    return thumbs;
  }

  private async replay(member: Member, row: MessageRow): Promise<MessageResponse> {
    return {
      conversation_id: Number(row.conversation_id),
      message: this.present(row, member.profileId),
      credits: (await this.credits.account(this.db, member.userId)).credits,
    };
  }

  /**
   * A send's first question, in one statement: is it a retry (the stored message), and else who is the
   * other profile (the named profile, or the other side of `me`'s conversation, else not_found).
   */
  private async retryOrRecipient(
    me: number,
    input: Pick<SendInput, "profile_id" | "conversation_id" | "client_id">,
  ): Promise<{ earlier: MessageRow; other?: never } | { earlier?: never; other: number }> {
    const byConversation = input.conversation_id !== undefined;
    const found = await findOwnMessageWith<{ other_id: number | null }>(
      this.db,
      me,
      input.client_id,
      byConversation ? otherSideColumn(me, input.conversation_id as number) : sql`null::int as "other_id"`,
    );
    if (found.again) return { earlier: found.again };
    if (byConversation && found.other_id == null) throw new AppError("not_found");
    const other = byConversation ? Number(found.other_id) : (input.profile_id as number);
    if (other === me) throw new AppError("cannot_message_self");
    return { other };
  }

  /**
   * POST /api/message.php: a text, a gift (with an optional text) or a GIF, stored with its credits in
   * one transaction, or neither. A retry with the same client_id answers the stored message and
   * charges nothing. `sessionKey` is the sender's session (the accounts module's key) when the member
   * was read before this call (a socket's, at its upgrade): that it still stands is checked under the
   * send's locks, and a session that ended answers authentication_required with nothing stored.
   */
  async send(member: Member, input: SendInput, rules: SendRules, sessionKey?: string | null): Promise<MessageResponse> {
    const me = member.profileId;
    if (input.gift !== undefined && !isGiftId(input.gift)) throw new AppError("gift_unavailable");
    const text = input.text ?? "";
    if ([...text].length > rules.maxLength) throw new AppError("message_too_long", { max: rules.maxLength });
    let content: MessageContent;
    let cost: number;
    let recipient: Recipient;
    if (input.gif !== undefined) {
      // A retry answers before the GIF is looked up again (a provider's answer may take a while).
      const first = await this.retryOrRecipient(me, input);
      if (first.earlier) return this.replay(member, first.earlier);
      recipient = { profileId: first.other };
      const gif = await this.gifs.find(input.gif);
      if (!gif) throw new AppError("gif_unavailable");
      content = { kind: "gif", gif };
      cost = rules.costs.gif;
    } else {
      // Texts and gifts: the transaction itself answers a retry and finds a named conversation's other
      // side, under its first lock (two round trips fewer than asking first; decision 020).
      recipient = this.recipientOf(me, input);
      content = input.gift !== undefined ? { kind: "gift", text, giftId: input.gift } : { kind: "text", text };
      cost = input.gift !== undefined ? rules.costs.gift : rules.costs.message;
    }
    const outcome = await this.store({ member, recipient, clientId: input.client_id, content, cost, sessionKey });
    return outcome.response;
  }

  /** Whom a send names: a profile (never oneself), or one of the sender's conversations. */
  private recipientOf(me: number, input: Pick<SendInput, "profile_id" | "conversation_id">): Recipient {
    if (input.conversation_id !== undefined) return { conversationId: input.conversation_id };
    if (input.profile_id === me) throw new AppError("cannot_message_self");
    return { profileId: input.profile_id as number };
  }

  /**
   * POST /api/message-photo.php: the photos module checks and re-encodes the image (metadata gone,
   * photo_invalid / photo_too_large) before anything is charged; then the message and photo_credits
   * in one transaction. The file goes again when the send fails or turns out to be a retry.
   */
  async sendPhoto(
    member: Member,
    input: Pick<SendInput, "profile_id" | "conversation_id" | "client_id">,
    file: Buffer,
    rules: SendRules,
  ): Promise<MessageResponse> {
    const first = await this.retryOrRecipient(member.profileId, input);
    if (first.earlier) return this.replay(member, first.earlier);
    const { other } = first;
    // The cheap rules before the costly decode (issue #25 hole 7: photos from a member with 0 credits
    // were decoded first and held the photo queue that profile uploads wait in).
    await this.refuseEarly(member, other, rules.costs.photo);
    const photo = await this.photos.storeChatPhoto(file);
    try {
      const outcome = await this.store({
        member,
        recipient: { profileId: other },
        clientId: input.client_id,
        content: { kind: "photo", photo },
        cost: rules.costs.photo,
      });
      if (outcome.replayed) await this.photos.deleteChatPhotos([photo.key]);
      return outcome.response;
    } catch (error) {
      await this.photos.deleteChatPhotos([photo.key]);
      throw error;
    }
  }

  /**
   * Throws what store() would answer (hidden or unconfirmed recipient, the free conversation limit, not
   * enough credits) when a read without locks already shows it; store() checks again under its locks.
   */
  private async refuseEarly(member: Member, other: number, cost: number): Promise<void> {
    const me = member.profileId;
    const columns = this.credits.memberColumns(sql`${member.userId}::int`);
    const found = await sendPrecheck(this.db, {
      me,
      other,
      ok: this.visibleForSend(me, other),
      paid: columns.paid,
      credits: columns.credits,
      freeLimit: LIMITS.freeConversations,
    });
    if (!found.ok) throw await this.refusal(this.db, me, other);
    if (!found.within_limit) throw new AppError("conversation_limit_reached", { max: LIMITS.freeConversations });
    if (found.credits < cost) throw new AppError("not_enough_credits");
  }

  /**
   * A send's storage (decision 020): sender lock → client_id replay → pair lock and visibility → the
   * free members' conversation limit → the debit (`message:<client_id>`) → the message and its events.
   * As one server-side function call on PostgreSQL and PGlite alike (SendFunction) when the pair's
   * conversation exists and the message is not a photo; else, or when the function finds no
   * conversation, as a transaction of its own statements (the same statements: the function is made of
   * them).
   */
  private async store(send: StoreRequest): Promise<{ response: MessageResponse; replayed: boolean }> {
    const { member } = send;
    const me = member.profileId;
    const outcome = (await this.storeInOneCall(send)) ?? (await this.storeInTransaction(send));
    if (outcome.replayed) return { response: await this.replay(member, outcome.row), replayed: true };
    await this.events.deliver(...outcome.pending);
    return {
      response: {
        conversation_id: Number(outcome.row.conversation_id),
        message: this.present(outcome.row, me),
        credits: outcome.balance,
      },
      replayed: false,
    };
  }

  /** store() as a transaction of its own statements (the locks, the checks and the write, and a new conversation). */
  private storeInTransaction({ member, recipient, clientId, content, cost, sessionKey }: StoreRequest): Promise<Stored> {
    const me = member.profileId;
    return this.db.transaction(async (tx) => {
      // Under the pair's lock: a block either committed before (seen below) or waits and deletes what we store.
      // The member's credit lock last (decision 020's order), in the same statement: the debit below needs it.
      // In the same round trip: whether the sender's session still stands (a socket's frames), whether the
      // sender is premium now (a purchase since the member was read lifts the free limit), the other
      // member's user id, the pair's conversation, and the new message's id and time.
      const locked = await lockSenderAndPair<{
        standing: boolean;
        paid: boolean;
        user_id: number | null;
        conversation_id: number | null;
        next_id: number;
        now: string | Date;
      }>(
        tx,
        me,
        "profileId" in recipient ? sql`${recipient.profileId}::int` : otherSide(me, recipient.conversationId),
        this.credits.lockExpression(member.userId),
        (other) =>
          sql`${this.standing(sessionKey)} as "standing", ${this.credits.memberColumns(sql`${member.userId}::int`).paid} as "paid",
              ${this.profiles.userIdOf(other)} as "user_id", ${pairConversation(me, other)} as "conversation_id", ${NEXT_MESSAGE_COLUMNS}`,
      );
      if (!locked.standing) throw new AppError("authentication_required");
      const { other } = locked;
      // Not one of the sender's conversations (or no longer: a block deleted it).
      if (other === null) throw new AppError("not_found");
      const otherUser = locked.user_id == null ? null : Number(locked.user_id);
      const debit = (when: SQL) => this.credits.keyedDebit({ userId: member.userId, cost, ...debitOf(clientId, content), when });
      // The checks and, when they pass, the debit, the message and its events: one statement (decision 020).
      const attempt = (conversationId: number) => {
        const unsent = newMessageRow({
          id: Number(locked.next_id),
          createdAt: locked.now,
          conversationId,
          sender: me,
          clientId,
          content,
        });
        const announce = (userId: number, profileId: number) => ({ userId, event: this.messageEvent(unsent, profileId) });
        // To the recipient (whose counts it changes: no badges.changed beside it) and the sender's own tabs.
        const events = this.events.recordLent(
          [...(otherUser === null ? [] : [announce(otherUser, other)]), announce(member.userId, me)],
          MESSAGE_WRITTEN,
        );
        return checkAndWritePaidMessage(tx, {
          row: unsent,
          other,
          ok: this.visibleForSend(me, other),
          paid: locked.paid === true,
          freeLimit: LIMITS.freeConversations,
          debit,
          events,
        }).then((written) => ({ written, events }));
      };
      // The pair's conversation as the locks' statement saw it; made (a first message) or found again
      // (one a block replaced) when the checks' fresher snapshot finds no side in it.
      let { written, events } = await attempt(locked.conversation_id == null ? 0 : Number(locked.conversation_id));
      if (written.again) return { replayed: true as const, row: written.again };
      if (!written.ok) throw await this.refusal(tx, me, other);
      if (!written.side) {
        const side = await findOrMakeConversation(tx, me, other, this.card);
        ({ written, events } = await attempt(Number(side.conversation_id)));
        if (!written.side) throw new Error("conversation side vanished");
      }
      const { row, balance } = this.written(written);
      return { replayed: false as const, row, balance, pending: events?.deliveries(written.numbers) ?? [] };
    });
  }

  /** The condition that the session of `key` still stands (true when there is none to check). */
  private standing(key: string | null | undefined): SQL {
    if (key === undefined) return sql`true`;
    return key === null ? sql`false` : this.sessions.sessionStands(key);
  }

  /** Why a send to `other` is refused when the visibility condition fails: waiting for their address, or hidden. */
  private async refusal(db: DbOrTx, me: number, other: number): Promise<AppError> {
    const [waiting] = await rowsOf<{ ok: boolean }>(db, sql`select ${this.listableTo(me)(sql`${other}::int`)} as "ok"`);
    return new AppError(waiting?.ok ? "recipient_unconfirmed" : "profile_unavailable");
  }

  /** The message a send's write stored and the balance after it, or why it stored none (after the retry and visibility checks). */
  private written(written: CheckedWrite): { row: MessageRow; balance: number } {
    if (!written.within_limit) throw new AppError("conversation_limit_reached", { max: LIMITS.freeConversations });
    const answer = this.credits.keyedDebitAnswer(written);
    if (!answer) throw new AppError("not_enough_credits");
    if (!written.message) throw new Error("conversation vanished");
    return { row: written.message, balance: answer.balance };
  }

  /**
   * When the database would not make a send function, the time to try again: until then every send
   * takes the transaction path (a blip at start-up does not leave the node on it for good, and a
   * database that refuses is not asked on every send).
   */
  private sendFunctionRetryAt = 0;

  /** The send functions (SendFunction), one per shape of the debit: made on first use. */
  private readonly sendFunctions = new Map<boolean, SendFunction>();
  private sendFunction(positive: boolean): SendFunction {
    let made = this.sendFunctions.get(positive);
    if (!made) {
      made = new SendFunction(
        this.db,
        {
          creditLock: (userId) => this.credits.lockExpression(userId),
          paid: (userId) => this.credits.memberColumns(userId).paid,
          userIdOf: (profileId) => this.profiles.userIdOf(profileId),
          sessionStands: (key) => this.sessions.sessionStands(key),
          visible: (other, me) => this.visibility.visibleProfile(other, me, "either"),
          debit: (input) => this.credits.keyedDebit(input),
          events: (entries, when) => this.events.recordLentExpressions(entries, when),
          written: MESSAGE_WRITTEN,
        },
        positive,
      );
      this.sendFunctions.set(positive, made);
    }
    return made;
  }

  /**
   * store() as one call of its server-side function, or undefined when the transaction path must do it
   * (a photo, no conversation yet, or none the checks could find).
   */
  private async storeInOneCall({
    member,
    recipient,
    clientId,
    content,
    cost,
    sessionKey,
  }: StoreRequest): Promise<Stored | undefined> {
    if (content.kind === "photo" || Date.now() < this.sendFunctionRetryAt) return undefined;
    const me = member.profileId;
    const send = this.sendFunction(cost > 0);
    try {
      await send.ensure(this.db);
    } catch (error) {
      // A database that will not take the function (a role without CREATE, say): the transaction path
      // does the same, a few round trips slower. Asked again in a minute.
      this.sendFunctionRetryAt = Date.now() + 60_000;
      this.log.error({ err: error }, "chat send function unavailable, sends use the transaction path");
      return undefined;
    }
    // The events as each side will see the message; the function sets its id, time and conversation.
    const unsent = newMessageRow({ id: 0, createdAt: new Date(0), conversationId: 0, sender: me, clientId, content });
    const eventFor = (viewer: number) => JSON.stringify(this.messageEvent(unsent, viewer));
    const answer = await send.call(this.db, {
      me,
      user: member.userId,
      toProfile: "profileId" in recipient ? recipient.profileId : null,
      conversation: "conversationId" in recipient ? recipient.conversationId : null,
      checkSession: sessionKey !== undefined,
      sessionKey: sessionKey ?? null,
      client: clientId,
      kind: unsent.kind,
      text: unsent.text,
      gift: unsent.gift_id,
      gif: unsent.gif === null ? null : JSON.stringify(unsent.gif),
      cost,
      ...debitOf(clientId, content),
      freeLimit: LIMITS.freeConversations,
      // Anyone but the sender sees it as the recipient does (not from them, no client_id).
      eventOther: eventFor(-1),
      eventMe: eventFor(me),
    });
    if (answer.outcome !== "done") {
      if (answer.outcome === "session") throw new AppError("authentication_required");
      if (answer.outcome === "not_found") throw new AppError("not_found");
      return undefined;
    }
    if (answer.again) return { replayed: true, row: answer.again };
    if (!answer.ok) throw await this.refusal(this.db, me, Number(answer.other));
    if (!answer.side) return undefined;
    const { row, balance } = this.written(answer);
    const other = Number(answer.other);
    const pending: PendingDelivery[] = ((answer.numbers ?? []) as [number, number][]).map(([userId, seq]) => ({
      userId: Number(userId),
      message: { seq: Number(seq), event: this.messageEvent(row, Number(userId) === member.userId ? me : other) },
    }));
    return { replayed: false, row, balance, pending };
  }

  /**
   * Spec §1, §4: the message a new member wrote on a profile's signup page, sent once their address is
   * confirmed (the accounts module's hook): a text message from them to that profile, paid like any
   * other out of the signup credits. Its client_id comes from the signup message's id, so a second
   * confirmation (or a retry after a crash) delivers it once. A profile that is no longer reachable,
   * or credits already spent, drop it quietly; answers whether it was sent.
   */
  async deliverSignupMessage(message: SignupMessage, rules: SendRules): Promise<boolean> {
    const [row] = await rowsOf<{ profile_id: number | null }>(
      this.db,
      sql`select ${this.profiles.profileIdOf(sql`${message.userId}::int`)} as "profile_id"`,
    );
    if (row?.profile_id == null) return false;
    const member: Member = { userId: message.userId, profileId: Number(row.profile_id) };
    const text = [...message.text.trim()].slice(0, rules.maxLength).join("");
    if (!text) return false;
    try {
      await this.send(member, { profile_id: message.toProfileId, client_id: nameUuid(`signup:${message.id}`), text }, rules);
      return true;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.log.info({ code: error.code, signupMessage: message.id }, "signup message dropped");
      return false;
    }
  }

  /**
   * GET /media/chat-photos/<id>.jpg: the photo's bytes for the two members of its conversation while
   * they can see the message (not deleted by them, within the window, no block, the other member
   * listable); null for anyone else, checked on every request.
   */
  async photo(member: Pick<MemberContext, "profileId"> | null, messageId: number): Promise<Buffer | null> {
    if (!member) return null;
    const key = await visiblePhotoKey(this.db, member.profileId, messageId, this.cutoff(), this.listableTo(member.profileId));
    return key ? this.photos.chatPhoto(key) : null;
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
              kind: row.last_kind ?? "text",
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

  /** When each member's last `typing: true` per conversation was forwarded (member:conversation → ms). */
  private readonly typingForwarded = new Map<string, number>();
  /**
   * Whom a member's typing in a conversation goes to (member:conversation → the other user and when it
   * was looked up), for TYPING_RECIPIENT_TTL_MS: typing frames come every 2 s while someone types, and
   * one look-up per frame was the typing fan-out's cost (bench:chat). A block clears this node's entries
   * of the conversation; another node may forward typing for at most the TTL after a block or deletion.
   */
  private readonly typingRecipients = new Map<string, { otherUser: number | null; at: number; conversationId: number }>();

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
    let recipient = this.typingRecipients.get(key);
    if (!recipient || now - recipient.at > TYPING_RECIPIENT_TTL_MS) {
      const [row] = await rowsOf<{ other_user: number | null }>(
        this.db,
        sql`select ${this.profiles.userIdOf(sql`"cm"."other_id"`)} as "other_user" from "conversation_members" as "cm"
            where "cm"."conversation_id" = ${conversationId} and "cm"."profile_id" = ${this.profiles.profileIdOf(sql`${userId}::int`)}`,
      );
      recipient = { otherUser: row?.other_user ? Number(row.other_user) : null, at: now, conversationId };
      if (this.typingRecipients.size > 10_000) this.typingRecipients.clear();
      this.typingRecipients.set(key, recipient);
    }
    if (recipient.otherUser === null) return false;
    await this.events.publishEphemeral(recipient.otherUser, { type: "chat.typing", conversation_id: conversationId, typing });
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
      const { deleted, photoKeys } = await deleteMessagesBefore(this.db, cutoff, batch);
      await this.photos.deleteChatPhotos(photoKeys);
      total += deleted;
      if (deleted < batch) return total;
    }
  }

  /**
   * The accounts module's erase hook: the photo files of the member's conversations (sent and
   * received: the conversations go with the profile), before the rows go.
   */
  readonly onErase = async (userId: number): Promise<void> => {
    await this.photos.deleteChatPhotos(await profilePhotoKeys(this.db, this.profiles.profileIdOf(sql`${userId}::int`)));
  };

  /** The block hook (spec §6: chats are deleted): the pair's conversation goes, in the block's transaction. */
  readonly onBlock = async (tx: Tx, blocker: number, blocked: number): Promise<AfterCommit | undefined> => {
    await lockPair(tx, blocker, blocked);
    const photoKeys = await pairPhotoKeys(tx, blocker, blocked);
    const deleted = await deletePairConversation(tx, blocker, blocked, this.cutoff());
    if (!deleted) return undefined;
    for (const [key, entry] of this.typingRecipients) if (entry.conversationId === deleted.id) this.typingRecipients.delete(key);
    const pending: PendingDelivery[] = [];
    for (const profileId of [blocker, blocked]) {
      if (!deleted.unread.has(profileId)) continue;
      const userId = await this.userIdOf(tx, profileId);
      await this.record(tx, pending, userId, { type: "chat.deleted", conversation_id: deleted.id });
      if ((deleted.unread.get(profileId) ?? 0) > 0) await this.record(tx, pending, userId, { type: "badges.changed" });
    }
    return async () => {
      await this.events.deliver(...pending);
      // The files after the commit: a rolled-back block must not leave messages without their photos.
      await this.photos.deleteChatPhotos(photoKeys);
    };
  };
}
