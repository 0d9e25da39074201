import type { ChatListEntry, ChatMessage, ChatResponse, ChatsResponse } from "@app/contract";

/** Chat answers for the component tests (the contract's shapes, the spec's default costs). */
export const ada = { id: 21, name: "Ada", main_image: null, fictional: false };
export const bo = { id: 22, name: "Bo", main_image: { thumb_url: "/cdn/22-thumb.jpg" }, fictional: true };

export function listEntry(overrides: Partial<ChatListEntry> & Pick<ChatListEntry, "conversation" | "profile">): ChatListEntry {
  const now = new Date().toISOString();
  return {
    num_unread_messages: 0,
    last_message: { kind: "text", text: "Hello", from_me: false, created_at: now },
    updated: now,
    awaiting_confirmation: null,
    ...overrides,
  };
}

export function chatsAnswer(chats: ChatListEntry[]): ChatsResponse {
  const unread = chats.reduce((sum, chat) => sum + chat.num_unread_messages, 0);
  return { chats, totals: { messages: chats.length, unread_messages: unread, new_likes: 0 }, conversation_limit: null };
}

export function message(overrides: Partial<ChatMessage> & Pick<ChatMessage, "id">): ChatMessage {
  return {
    conversation_id: 5,
    profile_id: ada.id,
    from_me: false,
    kind: "text",
    text: `Message ${overrides.id}`,
    photo: null,
    gift: null,
    gif: null,
    created_at: new Date().toISOString(),
    client_id: null,
    ...overrides,
  };
}

export function chatAnswer(overrides: Partial<ChatResponse> = {}): ChatResponse {
  return {
    conversation: { id: 5 },
    profile: ada,
    messages: [],
    has_more: false,
    older_hidden: false,
    read_up_to: null,
    awaiting_confirmation: null,
    costs: { message: 10, photo: 20, gift: 30, gif: 10, minimum: null },
    credits: 40,
    ...overrides,
  };
}
