import type { ClientFrameHandler, WsHub } from "../../platform/http/ws.ts";
import { t } from "../../platform/i18n.ts";
import type { SiteService } from "../site/service.ts";
import { sendFrameHandler } from "./routes.ts";
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

/** The chat's client frames on the member's socket: typing, and a message sent without a request of its own. */
export function registerChatFrames(
  ws: Pick<WsHub, "onClientFrame">,
  { chat, site }: { chat: ChatService; site: SiteService },
): void {
  ws.onClientFrame("typing", typingFrameHandler(chat));
  ws.onClientFrame("send", sendFrameHandler({ chat, site }));
}
