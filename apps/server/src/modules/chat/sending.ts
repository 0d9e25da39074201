import { createHash } from "node:crypto";
import { LIMITS, type MemberContext, type MessageResponse, type SendCosts } from "@app/contract";
import { sql } from "drizzle-orm";
import { type Db, type DbOrTx, rowsOf } from "../../platform/db/index.ts";
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
 * One message on its way to chat_send_v2: the input with its content and price settled. `sessionKey`
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

/**
 * What chat_send_v2 answers (drizzle/0028_chat_send_v2.sql): why it stopped, or what it stored (for a
 * fictional profile's answer: no balance, and how long the member had waited).
 */
type SendAnswer =
  | { outcome: "not_found" | "session" | "limit" | "credits" }
  | { outcome: "refused"; other: number }
  | { outcome: "again"; message: MessageRow }
  | {
      outcome: "sent";
      message: MessageRow;
      balance: number | null;
      waited_since: string | null;
      events: [number, number, PendingDelivery["message"]["event"]][];
    };

/** What an operator sends as a fictional profile (issue #27): a text, a gift with an optional text, a GIF or a stored photo. */
export type PersonaContent =
  | { text: string; gift?: undefined; gif?: undefined; photo?: undefined }
  | { gift: string; text?: string | undefined; gif?: undefined; photo?: undefined }
  | { gif: string; text?: undefined; gift?: undefined; photo?: undefined }
  | { photo: { key: string; width: number; height: number }; text?: undefined; gift?: undefined; gif?: undefined };

/** A fictional profile's message stored in the caller's transaction: its answer, and its events to send after commit. */
export interface PersonaSent {
  conversation_id: number;
  message: MessageResponse["message"];
  /** conversations.waiting_since before this message (null: the member was not waiting, or a retry). */
  waitedSince: Date | null;
  /** A retry of a message already stored with this client_id (nothing stored now). */
  replayed: boolean;
  /** Sends the stored events (the member's tabs on every node); call after the transaction committed. */
  deliver: () => Promise<void>;
}

/** A UUID made from a name (SHA-1, RFC 4122 version 5 layout): the same signup message, the same client_id. */
function nameUuid(name: string): string {
  const hash = createHash("sha1").update(`chat:${name}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A send's text (or a gift's), refused when too long, and its gift, refused when not in the catalogue. */
function checkedText(input: Pick<SendInput, "text" | "gift">, rules: Pick<SendRules, "maxLength">): string {
  if (input.gift !== undefined && !isGiftId(input.gift)) throw new AppError("gift_unavailable");
  const text = input.text ?? "";
  if ([...text].length > rules.maxLength) throw new AppError("message_too_long", { max: rules.maxLength });
  return text;
}

/** The ledger's reason of a send's debit (its key is `message:<client_id>`, set by chat_send_v2). */
const reasonOf = (content: Content) => (content.kind === "gift" || content.kind === "photo" ? content.kind : "message");

/**
 * Sending (spec §1, §3, §4, §8; decision 020): every message, of every kind, is stored by one call of
 * the migration's chat_send_v2 (drizzle/0028_chat_send_v2.sql holds the whole rule: locks, retry,
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
    const text = checkedText(input, rules);
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

  /**
   * Issue #27: an operator's message as the fictional profile `persona` (its user and profile ids), to
   * a member's profile or in one of the persona's conversations, stored inside the caller's `tx` (the
   * staff audit's transaction) by the same chat_send_v2 as members' messages, with `p_persona`: no
   * session, no free members' limit, nothing debited from anyone. Refused (not_found) unless `persona`
   * is fictional; the visibility policy and blocks apply as to any send. A photo's file is stored by
   * the caller (storeChatPhoto) and deleted by it when this fails. The events go when `deliver` is
   * called, after commit.
   */
  async sendAsPersona(
    tx: DbOrTx,
    persona: Sender,
    to: { profileId: number } | { conversationId: number },
    clientId: string,
    input: PersonaContent,
    rules: Pick<SendRules, "maxLength">,
  ): Promise<PersonaSent> {
    let content: Content;
    if (input.photo !== undefined) content = { kind: "photo", photo: input.photo };
    else if (input.gif !== undefined) {
      const gif = await this.gifs.find(input.gif);
      if (!gif) throw new AppError("gif_unavailable");
      content = { kind: "gif", gif };
    } else {
      const text = checkedText(input, rules);
      content = input.gift !== undefined ? { kind: "gift", text, giftId: input.gift } : { kind: "text", text };
    }
    if ("profileId" in to && to.profileId === persona.profileId) throw new AppError("cannot_message_self");
    const answer = await this.call(tx, { sender: persona, to, clientId, content, cost: 0 }, true);
    if (answer.outcome === "again") {
      return {
        conversation_id: Number(answer.message.conversation_id),
        message: presentMessage(answer.message, persona.profileId),
        waitedSince: null,
        replayed: true,
        deliver: async () => {},
      };
    }
    if (answer.outcome !== "sent") throw await this.refusalOf(tx, persona, answer);
    return {
      conversation_id: Number(answer.message.conversation_id),
      message: presentMessage(answer.message, persona.profileId),
      waitedSince: answer.waited_since === null ? null : new Date(answer.waited_since),
      replayed: false,
      deliver: () => this.deliverStored(answer.events),
    };
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

  /** One call of chat_send_v2 in `db` (the database, or the caller's transaction): what it answered. */
  private async call(db: DbOrTx, message: Outgoing, persona: boolean): Promise<SendAnswer> {
    const { sender, content } = message;
    const me = sender.profileId;
    // The message as its events will show it; chat_send_v2 sets its id, conversation and time (and
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
      db,
      sql`select chat_send_v2(
            ${me}::int, ${sender.userId}::int,
            ${"profileId" in to ? to.profileId : null}::int, ${"conversationId" in to ? to.conversationId : null}::int,
            ${message.sessionKey !== undefined}::boolean, ${message.sessionKey ?? null}::text,
            ${message.clientId}::uuid, ${unsent.kind}::text, ${unsent.text}::text, ${unsent.gift_id}::text,
            ${unsent.gif === null ? null : JSON.stringify(unsent.gif)}::jsonb,
            ${unsent.photo_key}::text, ${unsent.photo_width}::int, ${unsent.photo_height}::int,
            ${message.cost}::int, ${reasonOf(content)}::text, ${LIMITS.freeConversations}::int,
            ${JSON.stringify(messageEvent(unsent, -1))}::jsonb, ${JSON.stringify(messageEvent(unsent, me))}::jsonb,
            ${CHAT_PHOTO_PATH}::text, ${persona}::boolean
          ) as "answer"`,
    );
    const answer = row?.answer;
    if (!answer) throw new Error("a function call answers one row");
    return answer;
  }

  /** Why a send stopped, as the API's error. */
  private async refusalOf(
    db: DbOrTx,
    sender: Sender,
    answer: Exclude<SendAnswer, { outcome: "again" | "sent" }>,
  ): Promise<AppError> {
    switch (answer.outcome) {
      case "not_found":
        return new AppError("not_found");
      case "session":
        return new AppError("authentication_required");
      case "refused":
        return await this.audience.refusal(db, sender.profileId, Number(answer.other));
      case "limit":
        return new AppError("conversation_limit_reached", { max: LIMITS.freeConversations });
      case "credits":
        return new AppError("not_enough_credits");
    }
  }

  /** Sends the events a send stored (after its transaction committed). */
  private async deliverStored(events: Extract<SendAnswer, { outcome: "sent" }>["events"]): Promise<void> {
    await this.events.deliver(
      ...events.map(([userId, seq, event]) => ({ userId: Number(userId), message: { seq: Number(seq), event } })),
    );
  }

  /** A member's send: one call of chat_send_v2, its answer as the API's, and the events it stored sent after commit. */
  private async store(message: Outgoing): Promise<{ response: MessageResponse; replayed: boolean }> {
    const me = message.sender.profileId;
    const answer = await this.call(this.db, message, false);
    if (answer.outcome === "again") return { response: await this.replay(message.sender, answer.message), replayed: true };
    if (answer.outcome !== "sent") throw await this.refusalOf(this.db, message.sender, answer);
    await this.deliverStored(answer.events);
    const response = {
      conversation_id: Number(answer.message.conversation_id),
      message: presentMessage(answer.message, me),
      credits: Number(answer.balance),
    };
    return { response, replayed: false };
  }
}
