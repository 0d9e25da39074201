import { ENDPOINTS, type MessageRequest } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import { callEndpoint } from "../../lib/api";

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
 * POST /api/message.php, tried once: the page's own queue retries a send that got no answer (with the
 * same client_id, so the server stores and charges it once), and shows every other failure.
 */
export function postMessage(body: MessageRequest) {
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
