import { act, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { liveServerEvents, renderAsMember, stubApi, testUser } from "../../test-utils";
import { MessageToasts, showsConversation } from "./message-toasts";
import { ada, chatsAnswer, listEntry, message } from "./test-data";

afterEach(() => vi.unstubAllGlobals());

const adaEntry = listEntry({ conversation: { id: 5 }, profile: ada });
const fromAda = (id: number, fromMe = false) => ({
  type: "event" as const,
  seq: id,
  event: {
    type: "chat.message" as const,
    conversation_id: 5,
    message: message({ id, conversation_id: 5, profile_id: fromMe ? 7 : ada.id, from_me: fromMe }),
  },
});

describe("in-page message toasts (issue #28: the member is looking)", () => {
  it("knows the pages that show a conversation", () => {
    expect(showsConversation("/chats/5", 5, 21)).toBe(true);
    expect(showsConversation("/chats/5/", 5, 21)).toBe(true);
    expect(showsConversation("/members/21/chat", 5, 21)).toBe(true);
    expect(showsConversation("/chats", 5, 21)).toBe(false);
    expect(showsConversation("/chats/6", 5, 21)).toBe(false);
  });

  it("announces another member's message with their name and a link to the conversation, in the live region", async () => {
    stubApi({ "GET /api/chats.php": chatsAnswer([adaEntry]) });
    const live = liveServerEvents();
    renderAsMember(<MessageToasts />, { user: testUser(), events: live.events, path: "/members" });
    act(() => live.socket().push(fromAda(1, true)));
    act(() => live.socket().push(fromAda(2)));
    const text = await screen.findByText("New message from Ada.");
    expect(text.closest("[aria-live]")).not.toBeNull();
    expect(screen.getByRole("link", { name: "Open the conversation" }).getAttribute("href")).toBe("/chats/5");
    // The member's own message (another tab) is not announced.
    expect(screen.getAllByRole("status")).toHaveLength(1);
    live.events.stop();
  });

  it("stays quiet on that conversation's page", async () => {
    const fetch = stubApi({ "GET /api/chats.php": chatsAnswer([adaEntry]) });
    const live = liveServerEvents();
    renderAsMember(<MessageToasts />, { user: testUser(), events: live.events, path: "/chats/5" });
    act(() => live.socket().push(fromAda(1)));
    await act(async () => {});
    expect(screen.queryByRole("status")).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
    live.events.stop();
  });
});
