import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { liveServerEvents, renderAsMember, stubApi, testUser } from "../../test-utils";
import { ChatList } from "./chat-list";
import { ada, bo, chatsAnswer, listEntry } from "./test-data";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const adaEntry = listEntry({
  conversation: { id: 5 },
  profile: ada,
  num_unread_messages: 2,
  last_message: { kind: "text", text: "See you tomorrow?", from_me: false, created_at: new Date().toISOString() },
});
const boEntry = listEntry({
  conversation: { id: 6 },
  profile: bo,
  last_message: { kind: "photo", text: "", from_me: true, created_at: "2026-01-03T10:00:00Z" },
  awaiting_confirmation: "other",
});

describe("chat list", () => {
  it("shows each conversation with its last message, unread count and the hint of an unconfirmed address", async () => {
    stubApi({ "GET /api/chats.php": chatsAnswer([adaEntry, boEntry]) });
    renderAsMember(<ChatList activeId={6} />, { user: testUser() });
    const adaLink = await screen.findByRole("link", { name: /Ada/ });
    expect(adaLink).toHaveAttribute("href", "/chats/5");
    expect(adaLink).toHaveTextContent("See you tomorrow?");
    expect(within(adaLink).getByLabelText("2 unread messages")).toHaveTextContent("2");
    const boLink = screen.getByRole("link", { name: /Bo/ });
    expect(boLink).toHaveAttribute("aria-current", "page");
    expect(boLink).toHaveTextContent("You: Photo");
    expect(boLink).toHaveTextContent("Waiting for Bo to confirm their e-mail address");
    expect(within(boLink).queryByLabelText(/unread/)).toBeNull();
  });

  it("deletes a conversation at once after the modal, then on the server", async () => {
    let answer = chatsAnswer([adaEntry, boEntry]);
    let finish: (value: unknown) => void = () => {};
    const fetch = stubApi({
      "GET /api/chats.php": () => answer,
      "DELETE /api/chat.php": () => new Promise((resolve) => (finish = resolve)),
    });
    renderAsMember(<ChatList activeId={null} />, { user: testUser() });
    fireEvent.click(await screen.findByRole("button", { name: "Delete the conversation with Ada" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete conversation?" });
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    // Gone from the list before the server has answered.
    await vi.waitFor(() => expect(screen.queryByRole("link", { name: /Ada/ })).toBeNull());
    expect(screen.getByRole("link", { name: /Bo/ })).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith("/api/chat.php?id=5", expect.objectContaining({ method: "DELETE" }));
    answer = chatsAnswer([boEntry]);
    finish({ id: 5 });
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.queryByRole("link", { name: /Ada/ })).toBeNull();
    // The button that opened the modal went with its line: the focus is on the list.
    await vi.waitFor(() => expect(screen.getByRole("list")).toHaveFocus());
  });

  it("cancelling the modal keeps the conversation and gives the focus back to its delete button", async () => {
    const fetch = stubApi({ "GET /api/chats.php": chatsAnswer([adaEntry]) });
    renderAsMember(<ChatList activeId={null} />, { user: testUser() });
    const button = await screen.findByRole("button", { name: "Delete the conversation with Ada" });
    fireEvent.click(button);
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Cancel" }));
    await vi.waitFor(() => expect(button).toHaveFocus());
    expect(screen.getByRole("link", { name: /Ada/ })).toBeInTheDocument();
    expect(fetch.mock.calls.some(([, init]) => init?.method === "DELETE")).toBe(false);
  });

  it("on a failed deletion shows the server's message in a browser alert and reloads the list (spec §8)", async () => {
    const alert = vi.spyOn(window, "alert").mockImplementation(() => {});
    const fetch = stubApi({
      "GET /api/chats.php": chatsAnswer([adaEntry, boEntry]),
      "DELETE /api/chat.php": new Response(JSON.stringify({ error: "not_found", message: "This conversation does not exist." }), {
        status: 404,
      }),
    });
    renderAsMember(<ChatList activeId={null} />, { user: testUser() });
    fireEvent.click(await screen.findByRole("button", { name: "Delete the conversation with Ada" }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Delete" }));
    await vi.waitFor(() => expect(alert).toHaveBeenCalledWith("This conversation does not exist."));
    // Reloaded: the conversation is back.
    expect(await screen.findByRole("link", { name: /Ada/ })).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([url]) => url === "/api/chats.php")).toHaveLength(2);
  });

  it("reloads on a new message, a deletion elsewhere and changed counts", async () => {
    let chats = [boEntry];
    const fetch = stubApi({ "GET /api/chats.php": () => chatsAnswer(chats) });
    const live = liveServerEvents();
    renderAsMember(<ChatList activeId={null} />, { user: testUser(), events: live.events });
    await screen.findByRole("link", { name: /Bo/ });
    chats = [adaEntry, boEntry];
    act(() =>
      live.socket().push({
        type: "event",
        seq: 1,
        event: {
          type: "chat.message",
          conversation_id: 5,
          message: {
            id: 9,
            conversation_id: 5,
            profile_id: ada.id,
            from_me: false,
            kind: "text",
            text: "Hi",
            photo: null,
            gift: null,
            gif: null,
            created_at: new Date().toISOString(),
            client_id: null,
          },
        },
      }),
    );
    expect(await screen.findByRole("link", { name: /Ada/ })).toBeInTheDocument();
    chats = [adaEntry];
    act(() => live.socket().push({ type: "event", seq: 2, event: { type: "chat.deleted", conversation_id: 6 } }));
    await vi.waitFor(() => expect(screen.queryByRole("link", { name: /Bo/ })).toBeNull());
    act(() => live.socket().push({ type: "event", seq: 3, event: { type: "badges.changed" } }));
    await vi.waitFor(() => expect(fetch.mock.calls.filter(([url]) => url === "/api/chats.php")).toHaveLength(4));
  });
});
