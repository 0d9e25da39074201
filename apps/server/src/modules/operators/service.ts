import type {
  InboxCard,
  InboxConversation,
  InboxFigures,
  InboxLiveEvent,
  InboxQueue,
  InboxQueueItem,
  LikeState,
  MemberEvent,
} from "@app/contract";
import { INBOX_LEASE_SECONDS, INBOX_PAGE_SIZE } from "@app/contract";
import type { Bus } from "../../platform/bus.ts";
import type { Db, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { MemberEvents } from "../../platform/member-events.ts";
import type { ChatService, PersonaContent, PersonaSides, QueueCard, SendRules } from "../chat/index.ts";
import type { LikeService } from "../likes/index.ts";
import type { PhotoService } from "../photos/service.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { StaffActor, StaffService } from "../staff/service.ts";
import {
  answerFigures,
  type ClaimRow,
  claimColumn,
  dropClaim,
  findClaim,
  findNote,
  holdsClaim,
  recordAnswer,
  renewClaim,
  takeClaim,
  writeNote,
} from "./queries.ts";

/** What the inbox needs of other modules. */
export interface OperatorDependencies {
  chat: Pick<ChatService, "personas" | "sendAsPersona" | "typing" | "searchGifs">;
  likes: Pick<LikeService, "likeAsPersona" | "popupsForLike">;
  profiles: Pick<ProfileService, "detailsOf">;
  photos: Pick<
    PhotoService,
    "mainImages" | "urlOf" | "forViewer" | "activePhotoBytes" | "storeChatPhoto" | "deleteChatPhotos" | "chatPhoto"
  >;
  /** The audit log (every write) and the staff accounts' names (the figures per operator). */
  staff: Pick<StaffService, "audited" | "list">;
  bus: Pick<Bus, "subscribe">;
}

/** An answer as the API takes it: one of text, gift (with an optional text), GIF, or one of the persona's photos. */
export interface AnswerInput {
  client_id: string;
  text?: string | undefined;
  gift?: string | undefined;
  gif?: string | undefined;
  photo_id?: number | undefined;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Where the operator's page reads one of the conversation's persona's photos (staff-routes serves it). */
export const personaPhotoPath = (conversationId: number, photoId: number) =>
  `/staff/api/inbox/${conversationId}/persona-photos/${photoId}.jpg`;

/**
 * The operators' inbox (issue #27): the queue of conversations with a fictional profile waiting for an
 * answer, claims with a lease (operator_claims: one row per conversation, so one operator at a time),
 * answers as the profile through the chat's own send (chat_send_v2 with p_persona: nothing charged,
 * delivered live like any message), notes per pair, the figures, and a like or a first message from a
 * persona. Every write goes through the staff audit in its own transaction.
 */
export class OperatorService {
  constructor(
    private readonly db: Db,
    private readonly deps: OperatorDependencies,
  ) {}

  private claimOf(row: ClaimRow | null, staffId: number): InboxQueueItem["claim"] {
    return row
      ? { staff_id: Number(row.staff_id), expires_at: iso(row.expires_at), mine: Number(row.staff_id) === staffId }
      : null;
  }

  private async cards(cards: QueueCard[]): Promise<Map<number, InboxCard>> {
    const images = await this.deps.photos.mainImages([...new Set(cards.map((card) => card.id))]);
    return new Map(
      cards.map((card) => {
        const image = images.get(card.id);
        const photo_url = image?.status === "active" ? this.deps.photos.urlOf(image.thumb_filename) : null;
        return [card.id, { id: card.id, name: card.name, age: card.age, country: card.country, city: card.city, photo_url }];
      }),
    );
  }

  /** The queue, oldest wait first, after `after` (a previous page's `next`), as operator `staffId` sees it. */
  async queue(staffId: number, after?: string): Promise<InboxQueue> {
    const cursor = after ? after.split("_") : undefined;
    const [waiting, rows] = await Promise.all([
      this.deps.chat.personas.waitingCount(),
      this.deps.chat.personas.waiting({
        limit: INBOX_PAGE_SIZE,
        after: cursor ? { waitingSince: new Date(cursor[0] as string), conversationId: Number(cursor[1]) } : undefined,
        lent: claimColumn,
      }),
    ]);
    const cards = await this.cards(rows.flatMap((row) => [row.persona, row.member]));
    const items = rows.map((row) => ({
      conversation_id: row.conversation_id,
      waiting_since: row.waiting_since.toISOString(),
      persona: cards.get(row.persona.id) as InboxCard,
      member: cards.get(row.member.id) as InboxCard,
      last_message: { kind: row.last_kind, text: row.last_text },
      claim: this.claimOf(row.lent as ClaimRow | null, staffId),
    }));
    const last = rows.at(-1);
    const next = last && rows.length === INBOX_PAGE_SIZE ? `${last.waiting_since.toISOString()}_${last.conversation_id}` : null;
    return { waiting, items, next };
  }

  /** The sides of a conversation with a fictional profile, or not_found (any other conversation, or none). */
  private async sides(db: Db | Tx, conversationId: number): Promise<PersonaSides> {
    const sides = await this.deps.chat.personas.sidesOf(db, conversationId);
    if (!sides) throw new AppError("not_found");
    return sides;
  }

  /** A conversation with everything an operator answers from: both profiles, the history, the persona's earlier lines, the pair's note. */
  async conversation(staffId: number, conversationId: number): Promise<InboxConversation> {
    const sides = await this.sides(this.db, conversationId);
    const { personas } = this.deps.chat;
    const [history, earlier, note, claim, details, personaPhotos, cardRows] = await Promise.all([
      personas.history(sides, 100),
      personas.earlierLines(sides, 30),
      findNote(this.db, sides.personaId, sides.memberId),
      findClaim(this.db, conversationId, {}),
      this.deps.profiles.detailsOf([sides.personaId, sides.memberId]),
      this.deps.photos.forViewer(sides.personaId, { profileId: sides.personaId, paid: true }),
      personas.cards([sides.personaId, sides.memberId]),
    ]);
    const cards = await this.cards(cardRows);
    const profileOf = (id: number) => ({
      ...(cards.get(id) as InboxCard),
      about: details.get(id)?.about ?? "",
      interests: details.get(id)?.interests ?? [],
    });
    return {
      conversation_id: conversationId,
      waiting_since: sides.waitingSince?.toISOString() ?? null,
      persona: {
        ...profileOf(sides.personaId),
        photos: personaPhotos.photos.map((p) => ({ id: p.id, thumb_url: personaPhotoPath(conversationId, p.id) })),
      },
      member: profileOf(sides.memberId),
      history,
      earlier,
      note: note ? { text: note.text, staff_id: Number(note.staff_id), updated_at: iso(note.updated_at) } : null,
      claim: this.claimOf(claim, staffId),
    };
  }

  /**
   * Claims a conversation for INBOX_LEASE_SECONDS (renewing one's own): inbox_claimed when another
   * operator holds a live lease. Two operators at once: exactly one wins (queries.takeClaim).
   */
  async claim(actor: StaffActor, conversationId: number): Promise<{ conversation_id: number; expires_at: string }> {
    const staffId = actor.staff.id;
    const sides = await this.sides(this.db, conversationId);
    const expires = await this.deps.staff.audited(
      actor,
      (end: Date) => ({
        action: "inbox.claim",
        objectType: "conversation",
        objectId: conversationId,
        memberId: sides.memberUserId,
        after: { staff_id: staffId, expires_at: end.toISOString() },
      }),
      async (tx: Tx) => {
        const end = await takeClaim(tx, conversationId, staffId, INBOX_LEASE_SECONDS);
        if (!end) throw new AppError("inbox_claimed");
        return end;
      },
    );
    return { conversation_id: conversationId, expires_at: expires.toISOString() };
  }

  /** Renews the operator's own live lease (their page does it while they are on the conversation). */
  async renew(actor: StaffActor, conversationId: number): Promise<{ conversation_id: number; expires_at: string }> {
    const sides = await this.sides(this.db, conversationId);
    const expires = await this.deps.staff.audited(
      actor,
      (end: Date) => ({
        action: "inbox.renew",
        objectType: "conversation",
        objectId: conversationId,
        memberId: sides.memberUserId,
        after: { expires_at: end.toISOString() },
      }),
      async (tx: Tx) => {
        const end = await renewClaim(tx, conversationId, actor.staff.id, INBOX_LEASE_SECONDS);
        if (!end) throw new AppError("inbox_not_claimed");
        return end;
      },
    );
    return { conversation_id: conversationId, expires_at: expires.toISOString() };
  }

  /** Ends the operator's claim (they left the conversation); nothing to end is no error. */
  async release(actor: StaffActor, conversationId: number): Promise<void> {
    const sides = await this.sides(this.db, conversationId);
    // Nothing of mine to end (an answer released it already, or another operator took it over): no write, no audit row.
    if (!(await findClaim(this.db, conversationId, { staffId: actor.staff.id, expiredToo: true }))) return;
    await this.deps.staff.audited(
      actor,
      (dropped: boolean) => ({
        action: "inbox.release",
        objectType: "conversation",
        objectId: conversationId,
        memberId: sides.memberUserId,
        after: { released: dropped },
      }),
      (tx: Tx) => dropClaim(tx, conversationId, actor.staff.id),
    );
  }

  /**
   * Answers as the fictional profile in a conversation the operator holds (inbox_not_claimed
   * otherwise): through the chat's send (nothing charged, the member's tabs get it live on every
   * node), the answer recorded for the figures, the claim released, and the audit row, in one
   * transaction. A photo is one of the persona's own, re-encoded as any chat photo.
   */
  async answer(actor: StaffActor, conversationId: number, input: AnswerInput, rules: Pick<SendRules, "maxLength">) {
    const staffId = actor.staff.id;
    const sides = await this.sides(this.db, conversationId);
    if (!(await holdsClaim(this.db, conversationId, staffId))) throw new AppError("inbox_not_claimed");
    const photo = input.photo_id === undefined ? null : await this.personaPhoto(sides.personaId, input.photo_id);
    const content: PersonaContent = photo
      ? { photo }
      : input.gif !== undefined
        ? { gif: input.gif }
        : input.gift !== undefined
          ? { gift: input.gift, text: input.text }
          : { text: input.text ?? "" };
    try {
      const sent = await this.deps.staff.audited(
        actor,
        (result) => ({
          action: "inbox.answer",
          objectType: "conversation",
          objectId: conversationId,
          memberId: sides.memberUserId,
          after: { message_id: result.message.id, kind: result.message.kind, persona_id: sides.personaId },
        }),
        async (tx: Tx) => {
          if (!(await holdsClaim(tx, conversationId, staffId, true))) throw new AppError("inbox_not_claimed");
          const result = await this.deps.chat.sendAsPersona(
            tx,
            { userId: sides.personaUserId, profileId: sides.personaId },
            { conversationId },
            input.client_id,
            content,
            rules,
          );
          if (!result.replayed) {
            await recordAnswer(tx, {
              conversationId,
              messageId: result.message.id,
              personaId: sides.personaId,
              staffId,
              waitedSince: result.waitedSince,
            });
          }
          await dropClaim(tx, conversationId, staffId);
          return result;
        },
      );
      if (photo && sent.replayed) await this.deps.photos.deleteChatPhotos([photo.key]);
      await sent.deliver();
      return { conversation_id: sent.conversation_id, message: sent.message };
    } catch (error) {
      if (photo) await this.deps.photos.deleteChatPhotos([photo.key]);
      throw error;
    }
  }

  /** A photo message of a conversation with a fictional profile (the member's or the persona's), for the operator's view. */
  async photo(conversationId: number, messageId: number): Promise<Buffer> {
    const sides = await this.sides(this.db, conversationId);
    const key = await this.deps.chat.personas.photoKey(sides, messageId);
    const bytes = key ? await this.deps.photos.chatPhoto(key) : null;
    if (!bytes) throw new AppError("not_found");
    return bytes;
  }

  /**
   * The thumbnail of one of the conversation's persona's active photos, private ones included, for the
   * photos offered to send (the operator has no member session, so /cdn would serve them as to a visitor).
   */
  async personaPhotoThumb(conversationId: number, photoId: number): Promise<Buffer> {
    const sides = await this.sides(this.db, conversationId);
    const bytes = await this.deps.photos.activePhotoBytes(sides.personaId, photoId, "thumb");
    if (!bytes) throw new AppError("not_found");
    return bytes;
  }

  /** One of the persona's active photos stored as a chat photo (not_found for any other photo). */
  private async personaPhoto(personaId: number, photoId: number) {
    const bytes = await this.deps.photos.activePhotoBytes(personaId, photoId);
    if (!bytes) throw new AppError("not_found");
    return this.deps.photos.storeChatPhoto(bytes);
  }

  /** The pair's note (an empty text removes it), for the conversation's persona and member. */
  async saveNote(actor: StaffActor, conversationId: number, text: string) {
    const sides = await this.sides(this.db, conversationId);
    const pair = { personaId: sides.personaId, memberId: sides.memberId };
    await this.deps.staff.audited(
      actor,
      (before) => ({
        action: "inbox.note",
        objectType: "conversation",
        objectId: conversationId,
        memberId: sides.memberUserId,
        before: before ? { text: before.text } : null,
        after: text ? { text } : null,
      }),
      (tx: Tx) => writeNote(tx, pair, text, actor.staff.id),
    );
    const note = await findNote(this.db, pair.personaId, pair.memberId);
    return { note: note ? { text: note.text, staff_id: Number(note.staff_id), updated_at: iso(note.updated_at) } : null };
  }

  /** GIFs for the composer, as members find them (the site's GIF source, in the staff member's language). */
  searchGifs(q: string, gifLocale: string | undefined) {
    return this.deps.chat.searchGifs(q, gifLocale);
  }

  /**
   * Typing as the persona in a claimed conversation: the member sees the fictional profile typing.
   * A stop from an operator who no longer holds the claim is a no-op, not a 409: the page sends it as the
   * textarea loses focus to the send button, so it races the answer that releases the claim (and the
   * answer itself ends the typing on the member's side).
   */
  async typing(staffId: number, conversationId: number, typing: boolean): Promise<void> {
    const sides = await this.sides(this.db, conversationId);
    if (!(await holdsClaim(this.db, conversationId, staffId))) {
      if (!typing) return;
      throw new AppError("inbox_not_claimed");
    }
    await this.deps.chat.typing(sides.personaUserId, conversationId, typing);
  }

  /**
   * The live stream of a claimed conversation for the operator's page: the member typing and new
   * messages, from the fictional member's own event channel (any node's sends and typing reach it
   * through the bus). Answers the unsubscribe.
   */
  async watch(staffId: number, conversationId: number, onEvent: (event: InboxLiveEvent) => void): Promise<() => Promise<void>> {
    const sides = await this.sides(this.db, conversationId);
    if (!(await holdsClaim(this.db, conversationId, staffId))) throw new AppError("inbox_not_claimed");
    return this.deps.bus.subscribe(MemberEvents.channel(sides.personaUserId), (raw) => {
      const event = (raw as { event?: MemberEvent }).event;
      if (!event || !("conversation_id" in event) || event.conversation_id !== conversationId) return;
      if (event.type === "chat.typing") onEvent({ type: "typing", typing: event.typing });
      else if (event.type === "chat.message") onEvent({ type: "message", message: event.message });
    });
  }

  /** A fictional profile's ids, or not_found (any other profile). */
  private async persona(db: Db | Tx, personaId: number) {
    const persona = await this.deps.chat.personas.persona(db, personaId);
    if (!persona) throw new AppError("not_found");
    return persona;
  }

  /** A like from a persona to a member (a match when the member liked it), audited. */
  async likeAsPersona(actor: StaffActor, personaId: number, memberId: number): Promise<{ member_id: number; state: LikeState }> {
    const persona = await this.persona(this.db, personaId);
    const popups = await this.deps.likes.popupsForLike(personaId, memberId);
    const liked = await this.deps.staff.audited(
      actor,
      (result) => ({
        action: "inbox.like",
        objectType: "profile",
        objectId: memberId,
        memberId: result.memberUserId,
        after: { persona_id: personaId, state: result.response.state },
      }),
      async (tx: Tx) => {
        const result = await this.deps.likes.likeAsPersona(tx, persona, memberId, popups);
        const [member] = await this.deps.chat.personas.usersOf(tx, [memberId]);
        return { ...result, memberUserId: member ?? null };
      },
    );
    await liked.deliver();
    return { member_id: memberId, state: liked.response.state };
  }

  /** A first message (a text) from a persona to a member, through the chat's send, audited. */
  async messageAsPersona(
    actor: StaffActor,
    input: { persona_id: number; member_id: number; client_id: string; text: string },
    rules: Pick<SendRules, "maxLength">,
  ) {
    const persona = await this.persona(this.db, input.persona_id);
    const sent = await this.deps.staff.audited(
      actor,
      (result) => ({
        action: "inbox.first_message",
        objectType: "conversation",
        objectId: result.conversation_id,
        memberId: result.memberUserId,
        after: { persona_id: input.persona_id, member_id: input.member_id, message_id: result.message.id },
      }),
      async (tx: Tx) => {
        const result = await this.deps.chat.sendAsPersona(
          tx,
          persona,
          { profileId: input.member_id },
          input.client_id,
          { text: input.text },
          rules,
        );
        const [member] = await this.deps.chat.personas.usersOf(tx, [input.member_id]);
        return { ...result, memberUserId: member ?? null };
      },
    );
    await sent.deliver();
    return { conversation_id: sent.conversation_id, message: sent.message };
  }

  /** Conversations with a fictional profile waiting for an answer now (the console's overview). */
  waitingCount(): Promise<number> {
    return this.deps.chat.personas.waitingCount();
  }

  /** Waiting conversations now, and the time to first answer over the last `hours`: in all, per operator, per hour. */
  async figures(hours: number): Promise<InboxFigures> {
    const since = new Date(Date.now() - hours * 3_600_000);
    const [waiting, oldest, figures] = await Promise.all([
      this.deps.chat.personas.waitingCount(),
      this.deps.chat.personas.oldestWait(),
      answerFigures(this.db, since),
    ]);
    const names = new Map(
      figures.perOperator.length ? (await this.deps.staff.list()).map((account) => [account.id, account.name] as const) : [],
    );
    const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    const wait = (row: { answers: number; median_seconds: unknown; p90_seconds: unknown } | undefined) => ({
      answers: Number(row?.answers ?? 0),
      median_seconds: num(row?.median_seconds),
      p90_seconds: num(row?.p90_seconds),
    });
    return {
      waiting,
      oldest_wait_seconds: oldest === null ? null : Math.max(0, Math.round((Date.now() - oldest.getTime()) / 1000)),
      hours,
      all: wait(figures.all),
      per_operator: figures.perOperator.map((row) => ({
        ...wait(row),
        staff_id: Number(row.staff_id),
        name: names.get(Number(row.staff_id)) ?? `#${row.staff_id}`,
      })),
      per_hour: figures.perHour.map((row) => ({ ...wait(row), hour: iso(row.hour) })),
    };
  }
}
