import { AppError } from "../../platform/errors.ts";
import { memberOf } from "../../platform/http/endpoint.ts";
import { errorAnswer } from "../../platform/http/errors.ts";
import type { ClientFrameHandler, WsHub } from "../../platform/http/ws.ts";
import { t } from "../../platform/i18n.ts";
import type { SiteService } from "../site/service.ts";
import { SEND_LIMIT, sendRules, siteSettingsOf } from "./routes.ts";
import type { ChatService } from "./service.ts";

/**
 * The `typing` client frame (spec §2's typing indicator): forwarded to the conversation's other member,
 * never stored. A visitor's frame, or one for a conversation the member is not in, is answered with an
 * error frame.
 */
export function typingFrameHandler(chat: Pick<ChatService, "typing">): ClientFrameHandler<"typing"> {
  return async ({ frame, userId, locale, send }) => {
    const refuse = (error: "authentication_required" | "not_found") =>
      send({ type: "error", error, message: t(locale, `error.${error}`) });
    if (userId === null) return refuse("authentication_required");
    if (!(await chat.typing(userId, frame.conversation_id, frame.typing))) refuse("not_found");
  };
}

/**
 * Sends a member may make over the WebSocket per minute on one node: as SEND_LIMIT, counted per member
 * (the socket is authenticated) instead of per address.
 */
class SendsPerMember {
  private readonly windows = new Map<number, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(userId: number): boolean {
    const now = this.now();
    // Old windows go now and then, so the map holds only members who sent lately.
    if (this.windows.size > 10_000) {
      for (const [id, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(id);
    }
    const window = this.windows.get(userId);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.set(userId, { start: now, count: 1 });
      return true;
    }
    window.count++;
    return window.count <= this.max;
  }
}

/**
 * The `send` client frame: POST /api/message.php over the member's open socket, without a request of
 * its own (no HTTP round, no cookie parsing, no shared rate-limit counter), answered with `sent` or
 * `send_failed` (the status and body the HTTP call would answer). The session is checked again for every
 * frame, inside the send's transaction (ChatService.send's `sessionKey`): a logout or a deletion stops the
 * sends at once, and whether the member is premium is read there too.
 */
export function sendFrameHandler({ chat, site }: { chat: ChatService; site: SiteService }): ClientFrameHandler<"send"> {
  const limit = new SendsPerMember(SEND_LIMIT.max, 60_000);
  return async ({ frame, request, locale, send }) => {
    const { message } = frame;
    try {
      // The member the socket was opened with; whether their session still stands is checked in the
      // send's first statement (a logout or a deletion stops the sends at once).
      const member = await memberOf(request);
      if (!member) throw new AppError("authentication_required");
      if (!limit.take(member.userId)) throw new AppError("rate_limited");
      const rules = sendRules(await siteSettingsOf(site, request));
      send({ type: "sent", answer: await chat.send(member, message, rules, request.server.sessionKey(request)) });
    } catch (error) {
      const { status, body } = errorAnswer(error, locale, request.log);
      send({ type: "send_failed", client_id: message.client_id, status, body });
    }
  };
}

/** The chat's client frames on the member's socket: typing, and a message sent without a request of its own. */
export function registerChatFrames(
  ws: Pick<WsHub, "onClientFrame">,
  { chat, site }: { chat: ChatService; site: SiteService },
): void {
  ws.onClientFrame("typing", typingFrameHandler(chat));
  ws.onClientFrame("send", sendFrameHandler({ chat, site }));
}
