import { ENDPOINTS, type MessageRequest } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import { ApiCallError, callEndpoint, reportSessionLost } from "../../lib/api";
import type { ServerEvents } from "../../lib/server-events";

/**
 * Query keys of the chat feature (decision 013): the list, and each conversation's opening page (GET
 * /api/chat.php without `before`, which also marks it read). Chat events invalidate them.
 */
export const CHATS_KEY = ["chats"] as const;
export const CHAT_KEY = ["chat"] as const;

/** GET /api/chats.php: the conversation list and the totals (spec §3). */
export const chatsQuery = queryOptions({ queryKey: CHATS_KEY, queryFn: () => callEndpoint(ENDPOINTS.chats), gcTime: 0 });

/** The newest page of a conversation; loading it opens the conversation (its unread count becomes 0). */
export const chatQuery = (id: number) =>
  queryOptions({
    queryKey: [...CHAT_KEY, id],
    queryFn: () => callEndpoint(ENDPOINTS.chat, { query: { id } }),
    gcTime: 0,
  });

/** An earlier page of a conversation: the messages before message `before` (reads nothing). */
export function getEarlierMessages(id: number, before: number) {
  return callEndpoint(ENDPOINTS.chat, { query: { id, before } });
}

/** DELETE /api/chat.php?id=: the conversation leaves the member's list. */
export function deleteChat(id: number) {
  return callEndpoint(ENDPOINTS.deleteChat, { query: { id } });
}

/**
 * Sends a message, tried once: over the member's open live connection when its node takes messages
 * (no request of its own: decision 020), else, or when the socket gives no answer, as POST
 * /api/message.php with the same client_id (the server stores and charges it once). The page's own
 * queue retries a send that got no answer, and shows every other failure.
 */
export async function postMessage(body: MessageRequest, events?: ServerEvents | null) {
  const overSocket = events?.sendMessage(body);
  if (overSocket) {
    try {
      const result = await overSocket;
      if (result.ok) return result.answer;
      // Spec §4, as for any member call over HTTP: the session is gone, the member is logged out.
      if (result.status === 403 && result.body.error === "authentication_required") reportSessionLost();
      throw new ApiCallError(result.status, result.body);
    } catch (error) {
      if (error instanceof ApiCallError) throw error;
      // No answer on the socket: HTTP is asked the same (the client_id makes it safe).
    }
  }
  return callEndpoint(ENDPOINTS.message, { body }, { retries: 0 });
}

/** POST /api/message-photo.php (multipart): a photo to a conversation or a profile, tried once as above. */
export function postPhoto(target: SendTarget, clientId: string, file: File) {
  const form = new FormData();
  if ("conversation_id" in target) form.set("conversation_id", String(target.conversation_id));
  else form.set("profile_id", String(target.profile_id));
  form.set("client_id", clientId);
  form.set("file", file);
  return callEndpoint(ENDPOINTS.messagePhoto, { body: form }, { retries: 0 });
}

/** Where a message goes: the conversation once it exists, the profile for the first message. */
export type SendTarget = { conversation_id: number } | { profile_id: number };
