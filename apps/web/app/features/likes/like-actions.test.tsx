import type { LikePopupProfile } from "@app/contract";
import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { liveServerEvents, renderAsMember, stubApi, testUser } from "../../test-utils";
import { LikeActions, LoginToLike, promptDelayMs } from "./like-actions";
import { LikesProvider } from "./likes-provider";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const bea: LikePopupProfile = {
  id: 9,
  name: "Bea",
  age: 31,
  fictional: false,
  main_image: { thumb_url: "/cdn/9-thumb.jpg", match_url: "/cdn/9-match.jpg" },
};
const noBadges = { "GET /api/badges.php": { new_likes: 0, unread_messages: 0 } };

function renderActions(state: "none" | "liked" | "received" | "match", options: { path?: string; live?: boolean } = {}) {
  const live = options.live ? liveServerEvents() : null;
  renderAsMember(
    <LikesProvider autoLikeDelayMs={60_000}>
      <LikeActions profile={{ id: 9, name: "Bea" }} state={state} />
    </LikesProvider>,
    { user: testUser(), path: options.path, events: live?.events ?? null },
  );
  return live;
}

describe("like actions", () => {
  it("likes, says so, and offers to take it back", async () => {
    const fetch = stubApi({ ...noBadges, "POST /api/like.php": { id: 9, state: "liked", match: null } });
    renderActions("none");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Like Bea" })));
    const call = fetch.mock.calls.find(([url]) => url === "/api/like.php");
    expect(call?.[1]).toMatchObject({ method: "POST", body: JSON.stringify({ id: 9 }) });
    expect(screen.getByRole("status")).toHaveTextContent("You like Bea.");
    expect(screen.getByRole("button", { name: "Unlike Bea" })).toBeEnabled();
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("offers a like back to someone who liked the member, and shows the match pop-up once when it makes a match", async () => {
    stubApi({ ...noBadges, "POST /api/like.php": { id: 9, state: "match", match: bea } });
    const live = renderActions("received", { live: true });
    expect(screen.getByRole("status")).toHaveTextContent("Bea likes you!");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Like Bea back" })));
    // The same match also arrives as this member's event (initiator): one pop-up, not two.
    act(() => live?.socket().push({ type: "event", seq: 1, event: { type: "like.match", profile: bea, initiator: true } }));
    const dialog = await screen.findByRole("dialog", { name: "New like" });
    expect(dialog).toHaveTextContent("You and Bea like each other. It's a match!");
    expect(screen.getByRole("img", { name: "Photo of Bea" })).toHaveAttribute("src", "/cdn/9-match.jpg");
    expect(screen.getAllByRole("dialog")).toHaveLength(1);
    expect(screen.getByRole("status")).toHaveTextContent("It's a match: you and Bea like each other.");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Continue" })));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    // No second pop-up queued behind the first.
    await act(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("takes a like back with DELETE", async () => {
    const fetch = stubApi({ ...noBadges, "DELETE /api/like.php": { id: 9, state: "none", match: null } });
    renderActions("liked");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Unlike Bea" })));
    expect(fetch.mock.calls.some(([url, init]) => url === "/api/like.php?id=9" && init?.method === "DELETE")).toBe(true);
    expect(screen.getByRole("button", { name: "Like Bea" })).toBeEnabled();
  });

  it("shows the server's message when the like is refused", async () => {
    stubApi({
      ...noBadges,
      "POST /api/like.php": new Response(JSON.stringify({ error: "cannot_like_self", message: "You cannot like yourself." }), {
        status: 422,
      }),
    });
    renderActions("none");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Like Bea" })));
    expect(screen.getByRole("alert")).toHaveTextContent("You cannot like yourself.");
  });

  it("follows the other member's like and unlike as they happen", () => {
    stubApi(noBadges);
    const live = renderActions("none", { live: true });
    act(() => live?.socket().push({ type: "event", seq: 1, event: { type: "like.received", profile_id: 9 } }));
    expect(screen.getByRole("button", { name: "Like Bea back" })).toBeVisible();
    act(() => live?.socket().push({ type: "event", seq: 2, event: { type: "like.changed", profile_id: 9, state: "none" } }));
    expect(screen.getByRole("button", { name: "Like Bea" })).toBeVisible();
    act(() => live?.socket().push({ type: "event", seq: 3, event: { type: "like.changed", profile_id: 10, state: "match" } }));
    expect(screen.getByRole("button", { name: "Like Bea" })).toBeVisible();
  });
});

describe("like prompt (?t=)", () => {
  it("reads t as whole seconds, capped at an hour", () => {
    expect(promptDelayMs(new URLSearchParams("t=5"))).toBe(5000);
    expect(promptDelayMs(new URLSearchParams("t=0"))).toBe(0);
    expect(promptDelayMs(new URLSearchParams("t=99999"))).toBe(3_600_000);
    expect(promptDelayMs(new URLSearchParams(""))).toBeNull();
    expect(promptDelayMs(new URLSearchParams("t=-1"))).toBeNull();
    expect(promptDelayMs(new URLSearchParams("t=abc"))).toBeNull();
  });

  it("asks after t seconds and likes from the modal", async () => {
    vi.useFakeTimers();
    const fetch = stubApi({ ...noBadges, "POST /api/like.php": { id: 9, state: "liked", match: null } });
    renderActions("none", { path: "/members/9?t=3" });
    act(() => vi.advanceTimersByTime(2900));
    expect(screen.queryByRole("dialog")).toBeNull();
    act(() => vi.advanceTimersByTime(200));
    const dialog = screen.getByRole("dialog", { name: "Do you like Bea?" });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Yes, like Bea" })));
    expect(fetch.mock.calls.some(([url]) => url === "/api/like.php")).toBe(true);
    expect(dialog).not.toHaveClass("show");
  });

  it("does not come uninvited, nor when the member has liked already", () => {
    vi.useFakeTimers();
    stubApi(noBadges);
    renderActions("none", { path: "/members/9" });
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("is not shown to a member who has liked already", () => {
    vi.useFakeTimers();
    stubApi(noBadges);
    renderActions("liked", { path: "/members/9?t=1" });
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("visitors", () => {
  it("are asked to log in to like, by the action and by the prompt", () => {
    vi.useFakeTimers();
    renderAsMember(<LoginToLike name="Bea" />, { user: null, path: "/members/9?t=1" });
    expect(screen.getByRole("link", { name: "Log in to like Bea's profile" })).toHaveAttribute("href", "/login");
    act(() => vi.advanceTimersByTime(1000));
    const dialog = screen.getByRole("dialog", { name: "Do you like Bea?" });
    expect(dialog.querySelector('a[href="/login"]')).toHaveTextContent("Log in to like Bea's profile");
  });
});
