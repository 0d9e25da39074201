import { createHash } from "node:crypto";
import { LIMITS, type MemberContext, type MessageResponse, type SendCosts } from "@app/contract";
import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { MemberEvents, PendingDelivery } from "../../platform/member-events.ts";
import type { CreditService } from "../credits/index.ts";
import type { PhotoService } from "../photos/service.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { ChatAudience } from "./audience.ts";
import type { GifCatalogue } from "./gifs/gif-source.ts";
import { CHAT_PHOTO_PATH, isGiftId, messageEvent, presentMessage, type UnsentMessage } from "./presenting.ts";
import { findOwnMessageWith, type MessageRow, otherSideColumn } from "./queries.ts";
import type { StoredGif } from "./schema.ts";

/** Who sends: the ids are enough (whether they are premium is read under the send's locks). */
export type Sender = Pick<MemberContext, "userId" | "profileId">;

/** What a send costs and allows, from the site's settings (spec §9). */
export interface SendRules {
  /** Credits per kind: message_credits (texts, GIFs), gift_credits, photo_credits. */
  costs: Pick<SendCosts, "message" | "gift" | "gif" | "photo">;
  /** settings.message_length (a text, or a gift's text). */
  maxLength: number;
}

/** POST /api/message.php's body (and the socket's `send` frame): whom, what, and the client's id of it. */
export interface SendInput {
  profile_id?: number | undefined;
  conversation_id?: number | undefined;
  client_id: string;
  text?: string | undefined;
  gift?: string | undefined;
  gif?: string | undefined;
}

/** A signup message to deliver (the accounts module keeps them until the address is confirmed). */
export interface SignupMessage {
  id: number;
  userId: number;
  toProfileId: number;
  text: string;
}

/** What a message carries besides its text (the `messages_kind_content` check keeps them consistent). */
type Content =
  | { kind: "text"; text: string }
  | { kind: "gift"; text: string; giftId: string }
  | { kind: "gif"; gif: StoredGif }
  | { kind: "photo"; photo: { key: string; width: number; height: number } };

/**
 * One message on its way to chat_send_v1: the input with its content and price settled. `sessionKey`
 * is a session to check under the send's locks (a socket's frames; null for none valid), undefined
 * when the caller checked it.
 */
interface Outgoing {
  sender: Sender;
  to: { profileId: number } | { conversationId: number };
  clientId: string;
  content: Content;
  cost: number;
  sessionKey?: string | null | undefined;
}

/** What chat_send_v1 answers (drizzle/0025_chat_send.sql): why it stopped, or what it stored. */
type SendAnswer =
  | { outcome: "not_found" | "session" | "limit" | "credits" }
  | { outcome: "refused"; other: number }
  | { outcome: "again"; message: MessageRow }
  | { outcome: "sent"; message: MessageRow; balance: number; events: [number, number, PendingDelivery["message"]["event"]][] };

/** A UUID made from a name (SHA-1, RFC 4122 version 5 layout): the same signup message, the same client_id. */
function nameUuid(name: string): string {
  const hash = createHash("sha1").update(`chat:${name}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The ledger's reason of a send's debit (its key is `message:<client_id>`, set by chat_send_v1). */
const reasonOf = (content: Content) => (content.kind === "gift" || content.kind === "photo" ? content.kind : "message");

/**
 * Sending (spec §1, §3, §4, §8; decision 020): every message, of every kind, is stored by one call of
 * the migration's chat_send_v1 (drizzle/0025_chat_send.sql holds the whole rule: locks, retry,
 * visibility, the free members' limit, the debit, the message and its events). This file settles what
 * is sent and at what price, calls it, and answers as the API does; the events it delivers after
 * commit are the ones the function stored.
 */
export class ChatSending {
  constructor(
    private readonly db: Db,
    private readonly credits: Pick<CreditService, "account">,
    private readonly profiles: Pick<ProfileService, "profileIdOf">,
    private readonly photos: Pick<PhotoService, "storeChatPhoto" | "deleteChatPhotos">,
    private readonly audience: Pick<ChatAudience, "refusal">,
    private readonly events: Pick<MemberEvents, "deliver">,
    private readonly gifs: Pick<GifCatalogue, "find">,
    private readonly log: { info(obj: unknown, msg?: string): void },
  ) {}

  /**
   * POST /api/message.php: a text, a gift (with an optional text) or a GIF, stored with its credits in
   * one transaction, or neither. A retry with the same client_id answers the stored message and
   * charges nothing. `sessionKey` is the sender's session (the accounts module's key) when the member
   * was read before this call (a socket's, at its upgrade): a session that ended answers
   * authentication_required with nothing stored.
   */
  async send(sender: Sender, input: SendInput, rules: SendRules, sessionKey?: string | null): Promise<MessageResponse> {
    if (input.gift !== undefined && !isGiftId(input.gift)) throw new AppError("gift_unavailable");
    const text = input.text ?? "";
    if ([...text].length > rules.maxLength) throw new AppError("message_too_long", { max: rules.maxLength });
    if (input.gif !== undefined) {
      // A retry answers before the GIF is looked up again (a provider's answer may take a while).
      const first = await this.retryOrRecipient(sender, input);
      if ("again" in first) return this.replay(sender, first.again);
      const gif = await this.gifs.find(input.gif);
      if (!gif) throw new AppError("gif_unavailable");
      return (
        await this.store({
          sender,
          to: first,
          clientId: input.client_id,
          content: { kind: "gif", gif },
          cost: rules.costs.gif,
          sessionKey,
        })
      ).response;
    }
    const gift = input.gift;
    return (
      await this.store({
        sender,
        to: this.recipientOf(sender, input),
        clientId: input.client_id,
        content: gift !== undefined ? { kind: "gift", text, giftId: gift } : { kind: "text", text },
        cost: gift !== undefined ? rules.costs.gift : rules.costs.message,
        sessionKey,
      })
    ).response;
  }

  /**
   * POST /api/message-photo.php: the cheap rules first (issue #25: a member with 0 credits must not hold
   * the photo queue), then the photos module checks and re-encodes the image (metadata gone,
   * photo_invalid / photo_too_large) and stores its file, then the send stores its row. The file goes
   * again when the send fails or turns out to be a retry.
   */
  async sendPhoto(
    sender: Sender,
    input: Pick<SendInput, "profile_id" | "conversation_id" | "client_id">,
    file: Buffer,
    rules: SendRules,
  ) {
    const first = await this.retryOrRecipient(sender, input);
    if ("again" in first) return this.replay(sender, first.again);
    await this.refuseEarly(sender, first.profileId, rules.costs.photo);
    const photo = await this.photos.storeChatPhoto(file);
    try {
      const stored = await this.store({
        sender,
        to: first,
        clientId: input.client_id,
        content: { kind: "photo", photo },
        cost: rules.costs.photo,
      });
      if (stored.replayed) await this.photos.deleteChatPhotos([photo.key]);
      return stored.response;
    } catch (error) {
      await this.photos.deleteChatPhotos([photo.key]);
      throw error;
    }
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
    const sender: Sender = { userId: message.userId, profileId: Number(row.profile_id) };
    const text = [...message.text.trim()].slice(0, rules.maxLength).join("");
    if (!text) return false;
    try {
      await this.send(sender, { profile_id: message.toProfileId, client_id: nameUuid(`signup:${message.id}`), text }, rules);
      return true;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.log.info({ code: error.code, signupMessage: message.id }, "signup message dropped");
      return false;
    }
  }

  /** Whom a send names: a profile (never oneself), or one of the sender's conversations. */
  private recipientOf(sender: Sender, input: Pick<SendInput, "profile_id" | "conversation_id">): Outgoing["to"] {
    if (input.conversation_id !== undefined) return { conversationId: input.conversation_id };
    if (input.profile_id === sender.profileId) throw new AppError("cannot_message_self");
    return { profileId: input.profile_id as number };
  }

  /**
   * Before a costly step (a GIF look-up, a photo's decode), in one statement: is it a retry (the stored
   * message), and else who is the other profile (the named one, or the other side of the sender's
   * conversation, else not_found).
   */
  private async retryOrRecipient(
    sender: Sender,
    input: Pick<SendInput, "profile_id" | "conversation_id" | "client_id">,
  ): Promise<{ again: MessageRow } | { profileId: number }> {
    const me = sender.profileId;
    const byConversation = input.conversation_id !== undefined;
    const found = await findOwnMessageWith<{ other_id: number | null }>(
      this.db,
      me,
      input.client_id,
      byConversation ? otherSideColumn(me, input.conversation_id as number) : sql`null::int as "other_id"`,
    );
    if (found.again) return { again: found.again };
    if (byConversation && found.other_id == null) throw new AppError("not_found");
    const other = byConversation ? Number(found.other_id) : (input.profile_id as number);
    if (other === me) throw new AppError("cannot_message_self");
    return { profileId: other };
  }

  /**
   * Throws what the send would answer (a hidden or unconfirmed recipient, the free conversation limit,
   * not enough credits) when a read without locks already shows it, through the same modules' SQL
   * functions; the send checks all of it again under its locks.
   */
  private async refuseEarly(sender: Sender, other: number, cost: number): Promise<void> {
    const me = sender.profileId;
    const [found] = await rowsOf<{ ok: boolean; within_limit: boolean; credits: number }>(
      this.db,
      sql`select visibility_may_contact(${me}::int, ${other}::int) as "ok",
                 chat_within_free_limit(${me}::int, ${sender.userId}::int, ${other}::int, ${LIMITS.freeConversations}::int)
                   as "within_limit",
                 credits_balance(${sender.userId}::int) as "credits"`,
    );
    if (!found?.ok) throw await this.audience.refusal(this.db, me, other);
    if (!found.within_limit) throw new AppError("conversation_limit_reached", { max: LIMITS.freeConversations });
    if (Number(found.credits) < cost) throw new AppError("not_enough_credits");
  }

  /** A retry's answer: the stored message and today's balance (nothing charged again). */
  private async replay(sender: Sender, row: MessageRow): Promise<MessageResponse> {
    return {
      conversation_id: Number(row.conversation_id),
      message: presentMessage(row, sender.profileId),
      credits: (await this.credits.account(this.db, sender.userId)).credits,
    };
  }

  /** One call of chat_send_v1, its answer as the API's, and the events it stored sent after commit. */
  private async store(message: Outgoing): Promise<{ response: MessageResponse; replayed: boolean }> {
    const { sender, content } = message;
    const me = sender.profileId;
    // The message as its events will show it; chat_send_v1 sets its id, conversation and time (and
    // the photo's URL, which is made of the id) before it stores them.
    const unsent: UnsentMessage = {
      id: 0,
      conversation_id: 0,
      sender_id: me,
      client_id: message.clientId,
      kind: content.kind,
      text: content.kind === "text" || content.kind === "gift" ? content.text : "",
      gift_id: content.kind === "gift" ? content.giftId : null,
      gif: content.kind === "gif" ? content.gif : null,
      photo_key: content.kind === "photo" ? content.photo.key : null,
      photo_width: content.kind === "photo" ? content.photo.width : null,
      photo_height: content.kind === "photo" ? content.photo.height : null,
      created_at: new Date(0),
    };
    const to = message.to;
    const [row] = await rowsOf<{ answer: SendAnswer }>(
      this.db,
      sql`select chat_send_v1(
            ${me}::int, ${sender.userId}::int,
            ${"profileId" in to ? to.profileId : null}::int, ${"conversationId" in to ? to.conversationId : null}::int,
            ${message.sessionKey !== undefined}::boolean, ${message.sessionKey ?? null}::text,
            ${message.clientId}::uuid, ${unsent.kind}::text, ${unsent.text}::text, ${unsent.gift_id}::text,
            ${unsent.gif === null ? null : JSON.stringify(unsent.gif)}::jsonb,
            ${unsent.photo_key}::text, ${unsent.photo_width}::int, ${unsent.photo_height}::int,
            ${message.cost}::int, ${reasonOf(content)}::text, ${LIMITS.freeConversations}::int,
            ${JSON.stringify(messageEvent(unsent, -1))}::jsonb, ${JSON.stringify(messageEvent(unsent, me))}::jsonb,
            ${CHAT_PHOTO_PATH}::text
          ) as "answer"`,
    );
    const answer = row?.answer;
    if (!answer) throw new Error("a function call answers one row");
    switch (answer.outcome) {
      case "not_found":
        throw new AppError("not_found");
      case "session":
        throw new AppError("authentication_required");
      case "refused":
        throw await this.audience.refusal(this.db, me, Number(answer.other));
      case "limit":
        throw new AppError("conversation_limit_reached", { max: LIMITS.freeConversations });
      case "credits":
        throw new AppError("not_enough_credits");
      case "again":
        return { response: await this.replay(sender, answer.message), replayed: true };
      case "sent": {
        await this.events.deliver(
          ...answer.events.map(([userId, seq, event]) => ({ userId: Number(userId), message: { seq: Number(seq), event } })),
        );
        const response = {
          conversation_id: Number(answer.message.conversation_id),
          message: presentMessage(answer.message, me),
          credits: Number(answer.balance),
        };
        return { response, replayed: false };
      }
    }
  }
}
