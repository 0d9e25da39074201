import type { BadgesResponse, LikePopupProfile } from "@app/contract";
import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useBadgeCounts } from "../../lib/badges";
import { Heartbeat } from "../../lib/heartbeat";
import { liveServerEvents, renderAsMember, stubApi, testUser } from "../../test-utils";
import { PageTitle } from "../../ui/page-title";
import { LikesProvider } from "./likes-provider";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.sessionStorage.clear();
});

function Probe() {
  const { newLikes, unreadMessages } = useBadgeCounts();
  return (
    <>
      <PageTitle title="Members" />
      <p data-testid="badges">
        {newLikes}/{unreadMessages}
      </p>
    </>
  );
}

/** The provider around the probe, as the root renders it, for a member (or a visitor) with `events`. */
function renderProvider({
  user = testUser(),
  events = null,
  heartbeat = null,
  autoLikeDelayMs = 60_000,
  firstBadges,
}: Partial<Parameters<typeof renderAsMember>[1]> & { autoLikeDelayMs?: number; firstBadges?: BadgesResponse } = {}) {
  return renderAsMember(
    <LikesProvider autoLikeDelayMs={autoLikeDelayMs} firstBadges={firstBadges}>
      <Probe />
    </LikesProvider>,
    { user, events, heartbeat },
  );
}

const daan: LikePopupProfile = {
  id: 21,
  name: "Daan",
  age: 37,
  fictional: true,
  main_image: { thumb_url: "/cdn/21-thumb.jpg", match_url: "/cdn/21-match.jpg" },
};

describe("likes provider", () => {
  it("shows the counts rendered with the page without asking, and asks on the next badge event (issue #29)", async () => {
    const fetch = stubApi({ "GET /api/badges.php": { new_likes: 0, unread_messages: 1 } });
    const live = liveServerEvents();
    renderProvider({ events: live.events, firstBadges: { new_likes: 4, unread_messages: 1, new_visitors: 0 } });
    expect(screen.getByTestId("badges")).toHaveTextContent("4/1");
    await act(async () => {});
    expect(fetch.mock.calls.filter(([url]) => url === "/api/badges.php")).toHaveLength(0);
    act(() => live.socket().push({ type: "event", seq: 1, event: { type: "badges.changed" } }));
    await vi.waitFor(() => expect(screen.getByTestId("badges")).toHaveTextContent("0/1"));
  });

  it("loads the badges, prefixes the title with unread messages plus new likes, and reloads them on like events", async () => {
    let newLikes = 2;
    const fetch = stubApi({
      "GET /api/badges.php": () => ({ new_likes: newLikes, unread_messages: 1 }),
      "GET /api/auto-like.php": { profile: null },
    });
    const live = liveServerEvents();
    renderProvider({ events: live.events });
    await vi.waitFor(() => expect(screen.getByTestId("badges")).toHaveTextContent("2/1"));
    expect(document.title).toBe("(3) Members");
    newLikes = 3;
    act(() => live.socket().push({ type: "event", seq: 1, event: { type: "like.received", profile_id: 4 } }));
    await vi.waitFor(() => expect(screen.getByTestId("badges")).toHaveTextContent("3/1"));
    newLikes = 0;
    act(() => live.socket().push({ type: "event", seq: 2, event: { type: "badges.changed" } }));
    await vi.waitFor(() => expect(screen.getByTestId("badges")).toHaveTextContent("0/1"));
    expect(document.title).toBe("(1) Members");
    expect(fetch.mock.calls.filter(([url]) => url === "/api/badges.php")).toHaveLength(3);
  });

  it("reloads the unread count on the other member's chat message, not on the member's own from another tab", async () => {
    let unread = 2;
    const fetch = stubApi({
      "GET /api/badges.php": () => ({ new_likes: 0, unread_messages: unread }),
      "GET /api/auto-like.php": { profile: null },
    });
    const live = liveServerEvents();
    renderProvider({ events: live.events });
    await vi.waitFor(() => expect(screen.getByTestId("badges")).toHaveTextContent("0/2"));
    const message = (seq: number, fromMe: boolean) => ({
      type: "event" as const,
      seq,
      event: {
        type: "chat.message" as const,
        conversation_id: 5,
        message: {
          id: seq,
          conversation_id: 5,
          profile_id: fromMe ? 1 : 4,
          from_me: fromMe,
          kind: "text" as const,
          text: "Hi",
          photo: null,
          gift: null,
          gif: null,
          created_at: new Date().toISOString(),
          client_id: fromMe ? "5d0c7d4e-2f7c-4a53-9d0e-0d4f7c1b2a3e" : null,
        },
      },
    });
    unread = 3;
    act(() => live.socket().push(message(1, false)));
    await vi.waitFor(() => expect(screen.getByTestId("badges")).toHaveTextContent("0/3"));
    expect(document.title).toBe("(3) Members");
    act(() => live.socket().push(message(2, true)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetch.mock.calls.filter(([url]) => url === "/api/badges.php")).toHaveLength(2);
  });

  it("shows the match pop-up for a match completed in another tab (initiator), not for the other member's", async () => {
    stubApi({ "GET /api/badges.php": { new_likes: 0, unread_messages: 0 } });
    const live = liveServerEvents();
    renderProvider({ events: live.events });
    act(() => live.socket().push({ type: "event", seq: 1, event: { type: "like.match", profile: daan, initiator: false } }));
    expect(screen.queryByRole("dialog")).toBeNull();
    act(() => live.socket().push({ type: "event", seq: 2, event: { type: "like.match", profile: daan, initiator: true } }));
    // The pop-up is a lazy chunk: its first import (transformed on the fly) can take seconds on a busy machine.
    expect(await screen.findByRole("dialog", { name: "New like" }, { timeout: 15_000 })).toHaveTextContent(
      "You and Daan like each other.",
    );
  });

  it("reloads the badges and the likes with every beat of the member's polling loop (spec §7), socket or not", async () => {
    const fetch = stubApi({
      "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
      "GET /api/auto-like.php": { profile: null },
    });
    const badgeCalls = () => fetch.mock.calls.filter(([url]) => url === "/api/badges.php").length;
    const heartbeat = new Heartbeat();
    const live = liveServerEvents();
    renderProvider({ events: live.events, heartbeat });
    await vi.waitFor(() => expect(badgeCalls()).toBe(1));
    act(() => heartbeat.beat());
    await vi.waitFor(() => expect(badgeCalls()).toBe(2));
    live.events.stop();
    act(() => heartbeat.beat());
    await vi.waitFor(() => expect(badgeCalls()).toBe(3));
  });

  it("reloads the badges when the service worker reports a push (spec §7 NEW_PUSH_MESSAGE)", async () => {
    const container = new EventTarget();
    Object.defineProperty(navigator, "serviceWorker", { value: container, configurable: true });
    try {
      const fetch = stubApi({
        "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
        "GET /api/auto-like.php": { profile: null },
      });
      const badgeCalls = () => fetch.mock.calls.filter(([url]) => url === "/api/badges.php").length;
      renderProvider();
      await vi.waitFor(() => expect(badgeCalls()).toBe(1));
      const payload = { kind: "like", title: "Someone likes you", body: "", url: "/likes/received", tag: "likes" };
      act(() => void container.dispatchEvent(new MessageEvent("message", { data: { type: "NEW_PUSH_MESSAGE", payload } })));
      await vi.waitFor(() => expect(badgeCalls()).toBe(2));
    } finally {
      Reflect.deleteProperty(navigator, "serviceWorker");
    }
  });

  it("shows a toast for a like and for a match the other member completed, each with its link (issue #28)", async () => {
    stubApi({ "GET /api/badges.php": { new_likes: 0, unread_messages: 0 }, "GET /api/auto-like.php": { profile: null } });
    const live = liveServerEvents();
    renderProvider({ events: live.events });
    act(() => live.socket().push({ type: "event", seq: 1, event: { type: "like.received", profile_id: 21 } }));
    const like = await screen.findByText("Someone likes you!");
    expect(like.closest("[aria-live]")).not.toBeNull();
    expect(screen.getByRole("link", { name: "See your likes" }).getAttribute("href")).toBe("/likes/received");
    act(() => live.socket().push({ type: "event", seq: 2, event: { type: "like.match", profile: daan, initiator: false } }));
    expect(await screen.findByText("It's a match with Daan!")).toBeVisible();
    expect(screen.getByRole("link", { name: "See your matches" }).getAttribute("href")).toBe("/likes/matches");
    // The member who completed it gets the pop-up, not a second announcement as a toast.
    act(() => live.socket().push({ type: "event", seq: 3, event: { type: "like.match", profile: daan, initiator: true } }));
    await screen.findByRole("dialog", { name: "New like" }, { timeout: 15_000 });
    expect(screen.getAllByText("It's a match with Daan!")).toHaveLength(1);
  });

  it("asks for an auto-like once a session after the delay, shows it with the fictional mark and reloads the likes 500 ms later", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    const fetch = stubApi({
      "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
      "GET /api/auto-like.php": { profile: daan },
    });
    const calls = (path: string) => fetch.mock.calls.filter(([url]) => url === path).length;
    const first = renderProvider({ autoLikeDelayMs: 5000 });
    await act(async () => vi.advanceTimersByTimeAsync(4900));
    expect(calls("/api/auto-like.php")).toBe(0);
    await act(async () => vi.advanceTimersByTimeAsync(200));
    expect(calls("/api/auto-like.php")).toBe(1);
    const dialog = screen.getByRole("dialog", { name: "New like" });
    expect(dialog).toHaveTextContent("Daan likes you!");
    expect(screen.getByRole("img", { name: "Fictional profile" })).toBeInTheDocument();
    const badgesBefore = calls("/api/badges.php");
    await act(async () => vi.advanceTimersByTimeAsync(500));
    expect(calls("/api/badges.php")).toBe(badgesBefore + 1);
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    first.unmount();

    // A new page in the same session does not ask again.
    renderProvider({ autoLikeDelayMs: 5000 });
    await act(async () => vi.advanceTimersByTimeAsync(10_000));
    expect(calls("/api/auto-like.php")).toBe(1);
  });

  it("asks nothing for a visitor", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    const fetch = stubApi({});
    renderProvider({ user: null, autoLikeDelayMs: 5000 });
    await act(async () => vi.advanceTimersByTimeAsync(70_000));
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByTestId("badges")).toHaveTextContent("0/0");
  });
});
