import { type ClientFrame, type MessageRequest, TYPING_THROTTLE_MS, TYPING_TTL_MS } from "@app/contract";
import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { liveServerEvents, renderAsMember, stubApi, testUser } from "../../test-utils";
import { Conversation } from "./conversation";
import { ada, chatAnswer, message } from "./test-data";

// The pickers (gift, GIF, message body of photos/gifts/GIFs) are another part of the feature; these
// tests are about text messages.

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  // The outbox keeps failed messages in storage (issue #29): each test starts with none.
  window.localStorage.clear();
});

const HOUR = 3600 * 1000;

function renderConversation(events = liveServerEvents().events, purchasesAvailable?: boolean) {
  return renderAsMember(<Conversation start={{ conversationId: 5 }} onBack="/chats" />, {
    user: testUser(),
    path: "/chats/5",
    events,
    purchasesAvailable,
  });
}

/** Types a text in the message field and presses Enter. */
async function send(text: string) {
  const field = await screen.findByRole("textbox", { name: "Message to Ada" });
  fireEvent.change(field, { target: { value: text } });
  fireEvent.keyDown(field, { key: "Enter" });
}

const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as MessageRequest;
const bubble = (text: string) => screen.getByText(text).closest(".chat-bubble") as HTMLElement;

/** A send answer that fails like a dropped network the first time, then stores the message as `id`. */
function failsOnceThenStores(bodies: MessageRequest[], id: number) {
  return (init: RequestInit | undefined) => {
    const body = bodyOf(init);
    bodies.push(body);
    if (bodies.length === 1) throw new TypeError("Failed to fetch");
    return {
      conversation_id: 5,
      message: message({ id, from_me: true, text: body.text, client_id: body.client_id }),
      credits: 30,
    };
  };
}

describe("conversation", () => {
  it("shows the messages newest last with day separators, and the privacy line when older ones are hidden", async () => {
    const now = Date.now();
    stubApi({
      "GET /api/chat.php?id=5": chatAnswer({
        older_hidden: true,
        messages: [
          message({ id: 1, text: "Hello from yesterday", created_at: new Date(now - 24 * HOUR).toISOString() }),
          message({ id: 2, text: "My answer", from_me: true, profile_id: 7, created_at: new Date(now - 1000).toISOString() }),
          message({ id: 3, text: "<b>not bold</b>", created_at: new Date(now).toISOString() }),
        ],
      }),
    });
    renderConversation();
    const list = await screen.findByRole("list", { name: "Messages with Ada" });
    expect(screen.getByText("Older messages are no longer visible to protect your privacy.")).toBeInTheDocument();
    const items = within(list)
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    expect(items[0]).toBe("Yesterday");
    expect(items[1]).toContain("Hello from yesterday");
    expect(items[2]).toBe("Today");
    expect(items[3]).toContain("My answer");
    // Texts are plain text: markup shows as typed.
    expect(items[4]).toContain("<b>not bold</b>");
    expect(bubble("My answer").className).toContain("chat-bubble-mine");
    expect(bubble("Hello from yesterday").className).toContain("chat-bubble-theirs");
    expect(within(bubble("My answer")).getByRole("img", { name: "Sent" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Ada" })).toBeInTheDocument();
    expect(screen.getByText("10 credits per message")).toBeInTheDocument();
    expect(screen.getByText("You have 40 credits")).toBeInTheDocument();
  });

  it("loads earlier messages before the first one, and then shows the privacy line at the top", async () => {
    const fetch = stubApi({
      "GET /api/chat.php?id=5": chatAnswer({
        has_more: true,
        older_hidden: true,
        messages: [message({ id: 60 }), message({ id: 61 })],
      }),
      "GET /api/chat.php?id=5&before=60": chatAnswer({
        has_more: false,
        older_hidden: true,
        messages: [message({ id: 58 }), message({ id: 59 })],
      }),
    });
    renderConversation();
    fireEvent.click(await screen.findByRole("button", { name: "Load earlier messages" }));
    await screen.findByText("Message 58");
    expect(fetch).toHaveBeenCalledWith("/api/chat.php?id=5&before=60", expect.anything());
    expect(screen.getAllByText(/^Message \d+$/).map((element) => element.textContent)).toEqual([
      "Message 58",
      "Message 59",
      "Message 60",
      "Message 61",
    ]);
    expect(screen.queryByRole("button", { name: "Load earlier messages" })).toBeNull();
    expect(screen.getByText("Older messages are no longer visible to protect your privacy.")).toBeInTheDocument();
  });

  it("shows a sent message at once as sending, then sent when stored, then read when the other side read it", async () => {
    let store: (value: unknown) => void = () => {};
    let sent: MessageRequest | null = null;
    stubApi({
      "GET /api/chat.php?id=5": chatAnswer(),
      "POST /api/message.php": (init: RequestInit | undefined) => {
        sent = bodyOf(init);
        return new Promise((resolve) => (store = resolve));
      },
    });
    const live = liveServerEvents();
    renderConversation(live.events);
    await send("Hi Ada!");
    expect(within(bubble("Hi Ada!")).getByRole("img", { name: "Sending" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Message to Ada" })).toHaveValue("");
    await vi.waitFor(() => expect(sent).not.toBeNull());
    const request = sent as unknown as MessageRequest;
    expect(request).toMatchObject({ conversation_id: 5, text: "Hi Ada!" });
    expect(request.client_id).toMatch(/^[0-9a-f-]{36}$/);

    const stored = message({ id: 12, from_me: true, profile_id: 7, text: "Hi Ada!", client_id: request.client_id });
    // The own tab's event may come before the answer: the pending message becomes the stored one, once.
    act(() =>
      live.socket().push({ type: "event", seq: 1, event: { type: "chat.message", conversation_id: 5, message: stored } }),
    );
    store({ conversation_id: 5, message: stored, credits: 30 });
    await vi.waitFor(() => expect(within(bubble("Hi Ada!")).getByRole("img", { name: "Sent" })).toBeInTheDocument());
    expect(screen.getAllByText("Hi Ada!")).toHaveLength(1);
    expect(await screen.findByText("You have 30 credits")).toBeInTheDocument();

    act(() => live.socket().push({ type: "event", seq: 2, event: { type: "chat.read", conversation_id: 5, message_id: 12 } }));
    expect(within(bubble("Hi Ada!")).getByRole("img", { name: "Read" })).toBeInTheDocument();
  });

  it("sends over the live connection when its node takes messages, and over HTTP with the same client_id when the socket gives no answer", async () => {
    const overHttp: MessageRequest[] = [];
    stubApi({
      "GET /api/chat.php?id=5": chatAnswer(),
      "POST /api/message.php": (init: RequestInit | undefined) => {
        const body = bodyOf(init);
        overHttp.push(body);
        return {
          conversation_id: 5,
          message: message({ id: 21, from_me: true, text: body.text, client_id: body.client_id }),
          credits: 20,
        };
      },
    });
    const live = liveServerEvents();
    act(() => live.socket().drop(1001));
    await vi.waitFor(() => expect(live.socket().readyState).toBe(0));
    act(() => live.socket().open({ type: "hello", node: "n2", user_id: 7, seq: 0, accepts: ["ping", "resume", "send"] }));
    renderConversation(live.events);

    await send("Over the socket");
    const frameOf = (text: string) =>
      live.socket().sent.find((frame) => frame.type === "send" && frame.message.text === text) as
        | Extract<ClientFrame, { type: "send" }>
        | undefined;
    await vi.waitFor(() => expect(frameOf("Over the socket")).toBeDefined());
    const frame = frameOf("Over the socket");
    expect(frame?.message).toMatchObject({ conversation_id: 5, text: "Over the socket" });
    const clientId = frame?.message.client_id as string;
    act(() =>
      live.socket().push({
        type: "sent",
        answer: {
          conversation_id: 5,
          message: message({ id: 20, from_me: true, text: "Over the socket", client_id: clientId }),
          credits: 30,
        },
      }),
    );
    await vi.waitFor(() => expect(within(bubble("Over the socket")).getByRole("img", { name: "Sent" })).toBeInTheDocument());
    expect(await screen.findByText("You have 30 credits")).toBeInTheDocument();
    expect(overHttp).toHaveLength(0);

    // The next one gets no answer there: the socket drops, and the same message goes by HTTP at once.
    await send("No answer there");
    await vi.waitFor(() => expect(frameOf("No answer there")).toBeDefined());
    const socketClientId = frameOf("No answer there")?.message.client_id;
    act(() => live.socket().drop(1006));
    await vi.waitFor(() => expect(within(bubble("No answer there")).getByRole("img", { name: "Sent" })).toBeInTheDocument());
    expect(overHttp.map((body) => body.client_id)).toEqual([socketClientId]);
    expect(screen.getAllByText("No answer there")).toHaveLength(1);
  });

  it("keeps a message that got no answer queued and sends it again with the same client_id when back online", async () => {
    const bodies: MessageRequest[] = [];
    stubApi({ "GET /api/chat.php?id=5": chatAnswer(), "POST /api/message.php": failsOnceThenStores(bodies, 13) });
    renderConversation();
    await send("Are you there?");
    expect(await screen.findByText("Waiting for a connection… it will be sent automatically.")).toBeInTheDocument();
    expect(within(bubble("Are you there?")).getByRole("img", { name: "Sending" })).toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new Event("online"));
    });
    await vi.waitFor(() => expect(within(bubble("Are you there?")).getByRole("img", { name: "Sent" })).toBeInTheDocument());
    expect(bodies).toHaveLength(2);
    expect(bodies[1]?.client_id).toBe(bodies[0]?.client_id);
    expect(screen.getAllByText("Are you there?")).toHaveLength(1);
    expect(screen.queryByText(/Waiting for a connection/)).toBeNull();
  });

  it("sends a queued message again, with the same client_id, as soon as the live connection is back", async () => {
    const bodies: MessageRequest[] = [];
    stubApi({ "GET /api/chat.php?id=5": chatAnswer(), "POST /api/message.php": failsOnceThenStores(bodies, 14) });
    const live = liveServerEvents();
    renderConversation(live.events);
    await send("Still there?");
    await screen.findByText("Waiting for a connection… it will be sent automatically.");
    const first = live.socket();
    act(() => first.drop(1001));
    // The socket comes back (a node going away: at once) before the message's own retry is due (1 s).
    await vi.waitFor(() => expect(live.socket()).not.toBe(first));
    expect(bodies).toHaveLength(1);
    act(() => live.socket().open({ type: "hello", node: "n2", user_id: 7, seq: 0 }));
    await vi.waitFor(() => expect(within(bubble("Still there?")).getByRole("img", { name: "Sent" })).toBeInTheDocument());
    expect(bodies.map((body) => body.client_id)).toEqual([bodies[0]?.client_id, bodies[0]?.client_id]);
  });

  it("sends queued messages in order, one at a time", async () => {
    const texts: (string | undefined)[] = [];
    let id = 20;
    stubApi({
      "GET /api/chat.php?id=5": chatAnswer(),
      "POST /api/message.php": (init: RequestInit | undefined) => {
        const body = bodyOf(init);
        texts.push(body.text);
        return {
          conversation_id: 5,
          message: message({ id: id++, from_me: true, text: body.text, client_id: body.client_id }),
          credits: 30,
        };
      },
    });
    renderConversation();
    await send("one");
    await send("two");
    await send("three");
    await vi.waitFor(() => expect(screen.getAllByRole("img", { name: "Sent" })).toHaveLength(3));
    expect(texts).toEqual(["one", "two", "three"]);
  });

  it("offers to buy credits when the member has not enough, keeping the message with the reason", async () => {
    stubApi({
      "GET /api/chat.php?id=5": chatAnswer({ credits: 5 }),
      "POST /api/message.php": new Response(
        JSON.stringify({ error: "not_enough_credits", message: "You do not have enough credits" }),
        {
          status: 402,
        },
      ),
    });
    renderConversation();
    await send("Hello?");
    const link = await screen.findByRole("link", { name: "Buy credits" });
    expect(link).toHaveAttribute("href", "/credits?return=%2Fchats%2F5");
    expect(within(bubble("Hello?")).getByRole("alert")).toHaveTextContent("Not sent: You do not have enough credits");
    expect(within(bubble("Hello?")).getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });

  it("offers premium when a free member reaches the conversation limit", async () => {
    stubApi({
      "GET /api/chat.php?id=5": chatAnswer(),
      "POST /api/message.php": new Response(
        JSON.stringify({
          error: "conversation_limit_reached",
          message: "Free members can chat in up to 2 conversations. Get Premium to chat with more members.",
        }),
        { status: 403 },
      ),
    });
    renderConversation();
    await send("Hello?");
    expect(await screen.findByRole("link", { name: "Get Premium" })).toHaveAttribute("href", "/premium");
  });

  it("says purchases are unavailable instead of a way to buy credits or premium, on a site that takes none (issue #25)", async () => {
    const refusals = [
      { error: "not_enough_credits", message: "You do not have enough credits", status: 402 },
      { error: "conversation_limit_reached", message: "Free members can chat in up to 2 conversations.", status: 403 },
    ];
    for (const { status, ...body } of refusals) {
      stubApi({
        "GET /api/chat.php?id=5": chatAnswer({ credits: 5 }),
        "POST /api/message.php": new Response(JSON.stringify(body), { status }),
      });
      const view = renderConversation(undefined, false);
      await send("Hello?");
      expect(await screen.findByText("Purchases are unavailable right now. Please come back later.")).toBeVisible();
      expect(screen.queryByRole("link", { name: /Buy credits|Get Premium/ })).toBeNull();
      view.unmount();
    }
  });

  it("keeps the ways to buy where the settings say purchases are available", async () => {
    stubApi({
      "GET /api/chat.php?id=5": chatAnswer({ credits: 5 }),
      "POST /api/message.php": new Response(JSON.stringify({ error: "not_enough_credits", message: "Not enough" }), {
        status: 402,
      }),
    });
    renderConversation(undefined, true);
    await send("Hello?");
    expect(await screen.findByRole("link", { name: "Buy credits" })).toHaveAttribute("href", "/credits?return=%2Fchats%2F5");
    expect(screen.queryByText(/Purchases are unavailable/)).toBeNull();
  });

  it("adds live messages in order by id, once, and opens the conversation again to mark them read", async () => {
    const fetch = stubApi({ "GET /api/chat.php?id=5": chatAnswer({ messages: [message({ id: 3, text: "third" })] }) });
    const live = liveServerEvents();
    renderConversation(live.events);
    await screen.findByText("third");
    const push = (seq: number, id: number, text: string) =>
      act(() =>
        live
          .socket()
          .push({ type: "event", seq, event: { type: "chat.message", conversation_id: 5, message: message({ id, text }) } }),
      );
    push(1, 5, "fifth");
    push(2, 4, "fourth");
    push(3, 4, "fourth");
    const texts = screen.getAllByText(/^(third|fourth|fifth)$/).map((element) => element.textContent);
    expect(texts).toEqual(["third", "fourth", "fifth"]);
    await vi.waitFor(() => expect(fetch.mock.calls.filter(([url]) => url === "/api/chat.php?id=5").length).toBeGreaterThan(1));
  });

  it("marks a message that arrives in a background tab read only when the member comes back", async () => {
    const fetch = stubApi({ "GET /api/chat.php?id=5": chatAnswer() });
    const live = liveServerEvents();
    renderConversation(live.events);
    await screen.findByRole("textbox", { name: "Message to Ada" });
    const opened = () => fetch.mock.calls.filter(([url]) => url === "/api/chat.php?id=5").length;
    const visibility = vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    act(() =>
      live.socket().push({
        type: "event",
        seq: 1,
        event: { type: "chat.message", conversation_id: 5, message: message({ id: 8, text: "psst" }) },
      }),
    );
    expect(screen.getByText("psst")).toBeInTheDocument();
    expect(opened()).toBe(1);
    visibility.mockReturnValue("visible");
    act(() => {
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await vi.waitFor(() => expect(opened()).toBe(2));
    visibility.mockRestore();
  });

  it("shows the typing indicator on chat.typing, hides it after TYPING_TTL_MS, and sends typing frames", async () => {
    stubApi({ "GET /api/chat.php?id=5": chatAnswer() });
    const live = liveServerEvents();
    renderConversation(live.events);
    const field = await screen.findByRole("textbox", { name: "Message to Ada" });
    vi.useFakeTimers();
    act(() => live.socket().push({ type: "event", seq: null, event: { type: "chat.typing", conversation_id: 5, typing: true } }));
    expect(screen.getByText("Ada is typing…")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(TYPING_TTL_MS - 1));
    expect(screen.getByText("Ada is typing…")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText("Ada is typing…")).toBeNull();
    act(() => live.socket().push({ type: "event", seq: null, event: { type: "chat.typing", conversation_id: 5, typing: true } }));
    act(() =>
      live.socket().push({ type: "event", seq: null, event: { type: "chat.typing", conversation_id: 5, typing: false } }),
    );
    expect(screen.queryByText("Ada is typing…")).toBeNull();

    // Typing sends a start at most every TYPING_THROTTLE_MS, and a stop when leaving the field.
    const typingFrames = () => live.socket().sent.filter((frame) => frame.type === "typing");
    fireEvent.change(field, { target: { value: "H" } });
    fireEvent.change(field, { target: { value: "Hi" } });
    expect(typingFrames()).toEqual([{ type: "typing", conversation_id: 5, typing: true }]);
    act(() => vi.advanceTimersByTime(TYPING_THROTTLE_MS));
    fireEvent.change(field, { target: { value: "Hi!" } });
    expect(typingFrames()).toHaveLength(2);
    fireEvent.blur(field);
    expect(typingFrames().at(-1)).toEqual({ type: "typing", conversation_id: 5, typing: false });
  });

  it("counts down near the length limit and refuses a text over it", async () => {
    stubApi({ "GET /api/chat.php?id=5": chatAnswer() });
    renderConversation();
    const field = await screen.findByRole("textbox", { name: "Message to Ada" });
    fireEvent.change(field, { target: { value: "x".repeat(1_990) } });
    expect(screen.getByText("10 characters left")).toBeVisible();
    fireEvent.change(field, { target: { value: "x".repeat(2_003) } });
    expect(screen.getByText("Your message is too long: at most 2000 characters (3 too many).")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("offers icebreakers in an empty conversation; one fills the message field", async () => {
    stubApi({ "GET /api/chat.php?id=5": chatAnswer() });
    renderConversation();
    fireEvent.click(await screen.findByRole("button", { name: "Need an icebreaker?" }));
    const dialog = await screen.findByRole("dialog", { name: "Break the ice with Ada" });
    const lines = within(dialog)
      .getAllByRole("button")
      .filter((button) => button.classList.contains("list-group-item"));
    expect(lines).toHaveLength(6);
    fireEvent.click(within(dialog).getByRole("button", { name: "What is the best trip you have ever made?" }));
    expect(screen.getByRole("textbox", { name: "Message to Ada" })).toHaveValue("What is the best trip you have ever made?");
  });

  it("starts a conversation with a profile: the first message goes to profile_id, the next to the conversation", async () => {
    const bodies: MessageRequest[] = [];
    stubApi({
      "GET /api/chat.php?id=5": chatAnswer(),
      "POST /api/message.php": (init: RequestInit | undefined) => {
        const body = bodyOf(init);
        bodies.push(body);
        return {
          conversation_id: 5,
          message: message({ id: 30 + bodies.length, from_me: true, text: body.text, client_id: body.client_id }),
          credits: 30,
        };
      },
    });
    renderAsMember(<Conversation start={{ profile: ada }} />, { user: testUser({ credits: 20 }), path: "/members/21/chat" });
    expect(await screen.findByText("No messages yet. Say hello to Ada!")).toBeInTheDocument();
    await send("First!");
    await vi.waitFor(() => expect(screen.getByRole("img", { name: "Sent" })).toBeInTheDocument());
    await send("Second");
    await vi.waitFor(() => expect(screen.getAllByRole("img", { name: "Sent" })).toHaveLength(2));
    expect(bodies[0]).toMatchObject({ profile_id: ada.id, text: "First!" });
    expect(bodies[1]).toMatchObject({ conversation_id: 5, text: "Second" });
  });

  it("explains that the other member must confirm the e-mail address before a reply", async () => {
    stubApi({ "GET /api/chat.php?id=5": chatAnswer({ awaiting_confirmation: "other", messages: [message({ id: 1 })] }) });
    renderConversation();
    expect(
      await screen.findByText("Ada has not confirmed their e-mail address yet. You can reply as soon as they have."),
    ).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Message to Ada" })).toBeDisabled();
  });
});
