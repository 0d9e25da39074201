import type { Db } from "../../platform/db/index.ts";
import type { MemberEvents } from "../../platform/member-events.ts";
import type { CreditService } from "../credits/index.ts";
import type { LikeService } from "../likes/index.ts";
import type { PhotoService } from "../photos/service.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { VisibilityPolicy } from "../visibility/index.ts";
import { ChatAudience } from "./audience.ts";
import { ChatExport } from "./export.ts";
import type { GifCatalogue } from "./gifs/gif-source.ts";
import { ChatMedia } from "./media.ts";
import { ChatPersonas } from "./personas.ts";
import { ChatReading } from "./reading.ts";
import { ChatRetention, RetentionWindow } from "./retention.ts";
import { ChatSending } from "./sending.ts";
import { ChatTyping } from "./typing.ts";

export type { PersonaLine, PersonaSides, QueueCard, WaitingRow } from "./personas.ts";
export { CHAT_LIST_LIMIT } from "./reading.ts";
export type { PersonaContent, PersonaSent, SendInput, SendRules, SignupMessage } from "./sending.ts";
export { TYPING_RECIPIENT_TTL_MS } from "./typing.ts";

/** What the chat needs of other modules. */
export interface ChatDependencies {
  credits: Pick<CreditService, "account">;
  profiles: Pick<ProfileService, "userIdOf" | "cardOf" | "profileIdOf">;
  photos: Pick<PhotoService, "mainImages" | "urlOf" | "storeChatPhoto" | "chatPhoto" | "deleteChatPhotos">;
  visibility: Pick<VisibilityPolicy, "visibleProfile" | "unblocked">;
  likes: Pick<LikeService, "newLikes">;
  events: Pick<MemberEvents, "record" | "deliver" | "publishEphemeral">;
  gifs: Pick<GifCatalogue, "search" | "find">;
  log: { info(obj: unknown, msg?: string): void };
}

/**
 * The chat module's public face (spec §1, §3, §4, §6, §8; decision 020): one conversation per pair,
 * messages in server order. Made of its parts, each in its own file: sending (sending.ts, with the
 * migration's chat_send_v2), reading (the list, a conversation, read marks, deletion), media (gifts,
 * GIFs, photos served), retention (the window, blocks, erasure), typing, and the operators' view of
 * conversations with a fictional profile (personas.ts). The methods below are the
 * parts' own, so that routes and other modules need not know the split.
 */
export class ChatService {
  readonly window = new RetentionWindow();
  readonly sending: ChatSending;
  readonly reading: ChatReading;
  readonly media: ChatMedia;
  readonly retention: ChatRetention;
  readonly typingIndicator: ChatTyping;
  readonly export: ChatExport;
  /** The operators' side of conversations with a fictional profile (issue #27). */
  readonly personas: ChatPersonas;

  constructor(db: Db, deps: ChatDependencies) {
    const audience = new ChatAudience(deps.profiles, deps.visibility);
    this.sending = new ChatSending(db, deps.credits, deps.profiles, deps.photos, audience, deps.events, deps.gifs, deps.log);
    this.reading = new ChatReading(db, this.window, audience, deps.credits, deps.profiles, deps.photos, deps.likes, deps.events);
    this.media = new ChatMedia(db, this.window, audience, deps.photos, deps.gifs);
    this.typingIndicator = new ChatTyping(db, deps.profiles, deps.events);
    this.export = new ChatExport(db, deps.photos);
    this.personas = new ChatPersonas(db, this.window, audience.card);
    this.retention = new ChatRetention(db, this.window, deps.profiles, deps.photos, deps.events, (id) =>
      this.typingIndicator.forget(id),
    );
  }

  readonly send: ChatSending["send"] = (...args) => this.sending.send(...args);
  readonly sendPhoto: ChatSending["sendPhoto"] = (...args) => this.sending.sendPhoto(...args);
  readonly sendAsPersona: ChatSending["sendAsPersona"] = (...args) => this.sending.sendAsPersona(...args);
  readonly deliverSignupMessage: ChatSending["deliverSignupMessage"] = (...args) => this.sending.deliverSignupMessage(...args);
  readonly list: ChatReading["list"] = (...args) => this.reading.list(...args);
  readonly open: ChatReading["open"] = (...args) => this.reading.open(...args);
  readonly remove: ChatReading["remove"] = (...args) => this.reading.remove(...args);
  readonly received: ChatReading["received"] = (...args) => this.reading.received(...args);
  readonly unreadMessages: ChatReading["unreadMessages"] = (...args) => this.reading.unreadMessages(...args);
  readonly notice: ChatReading["notice"] = (...args) => this.reading.notice(...args);
  readonly staleUnread: ChatReading["staleUnread"] = (...args) => this.reading.staleUnread(...args);
  readonly gifts: ChatMedia["gifts"] = (...args) => this.media.gifts(...args);
  readonly searchGifs: ChatMedia["searchGifs"] = (...args) => this.media.searchGifs(...args);
  readonly photo: ChatMedia["photo"] = (...args) => this.media.photo(...args);
  readonly purgeExpired: ChatRetention["purgeExpired"] = (...args) => this.retention.purgeExpired(...args);
  readonly onBlock: ChatRetention["onBlock"] = (...args) => this.retention.onBlock(...args);
  readonly onErase: ChatRetention["onErase"] = (...args) => this.retention.onErase(...args);
  readonly exportFor: ChatExport["exportFor"] = (...args) => this.export.exportFor(...args);

  /** The WebSocket frame `typing` (ChatTyping.typing); a method, so that tests can spy on it. */
  typing(userId: number, conversationId: number, typing: boolean): Promise<boolean> {
    return this.typingIndicator.typing(userId, conversationId, typing);
  }
}
