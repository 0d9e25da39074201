import type { SwipeCard, SwipeResponse, SwipeStatus } from "@app/contract";
import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderAsMember, stubApi, testUser } from "../../test-utils";
import { LikesProvider } from "./likes-provider";
import { SWIPE_THRESHOLD_PX, SwipeGame } from "./swipe-game";

afterEach(() => vi.unstubAllGlobals());

const candidate = (id: number, name: string): SwipeCard => ({
  id,
  name,
  age: 29,
  country: "NL",
  city: "Leiden",
  fictional: false,
  main_image: { thumb_url: `/cdn/${id}-thumb.jpg`, status: "active" },
  distance: null,
  about: `About ${name}`,
  interests: [],
  image_url: `/cdn/${id}.jpg`,
});
const status = (overrides: Partial<SwipeStatus> = {}): SwipeStatus => ({
  swipes_left: 100,
  likes_left: 4,
  resets_at: "2026-11-23T00:00:00.000Z",
  limit: null,
  ...overrides,
});
const start: SwipeResponse = { profiles: [candidate(1, "Ada"), candidate(2, "Bo")], status: status() };

function renderGame(purchasesAvailable?: boolean) {
  return renderAsMember(
    <LikesProvider autoLikeDelayMs={60_000}>
      <SwipeGame />
    </LikesProvider>,
    { user: testUser(), path: "/swipe-game", purchasesAvailable },
  );
}

const swipes = (fetch: ReturnType<typeof stubApi>) =>
  fetch.mock.calls
    .filter(([url, init]) => url === "/api/swipe.php" && init?.method === "POST")
    .map(([, init]) => JSON.parse(String(init?.body)) as { id: number; like: boolean; tz?: string });

describe("swipe game", () => {
  it("likes with the right arrow key and passes with the left one, one card at a time, counting the likes left", async () => {
    const fetch = stubApi({
      "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
      "GET /api/swipe.php": start,
      "POST /api/swipe.php": (init: RequestInit | undefined) => {
        const like = (JSON.parse(String(init?.body)) as { like: boolean }).like;
        return { state: like ? "liked" : "none", match: null, status: status({ likes_left: like ? 3 : 4 }) };
      },
    });
    renderGame();
    expect(await screen.findByRole("heading", { name: "Ada, 29" })).toBeVisible();
    expect(screen.getByText("About Ada")).toBeVisible();
    expect(screen.getByText("Leiden")).toBeVisible();
    expect(screen.getByText("4 likes left today")).toBeVisible();
    expect(fetch.mock.calls.find(([url]) => String(url).startsWith("/api/swipe.php?"))?.[0]).toMatch(/^\/api\/swipe\.php\?tz=/);

    await act(async () => fireEvent.keyDown(window, { key: "ArrowRight" }));
    expect(swipes(fetch)[0]).toMatchObject({ id: 1, like: true });
    expect(swipes(fetch)[0]?.tz).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Bo, 29" })).toBeVisible();
    expect(screen.getByText("3 likes left today")).toBeVisible();
    expect(screen.getByText("You liked Ada.")).toBeInTheDocument();

    await act(async () => fireEvent.keyDown(window, { key: "ArrowLeft" }));
    expect(swipes(fetch)[1]).toMatchObject({ id: 2, like: false });
  });

  it("takes a card dragged past the threshold as a swipe and springs a short drag back", async () => {
    const fetch = stubApi({
      "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
      "GET /api/swipe.php": start,
      "POST /api/swipe.php": { state: "none", match: null, status: status() },
    });
    renderGame();
    const card = (await screen.findByRole("heading", { name: "Ada, 29" })).closest("article") as HTMLElement;
    fireEvent.pointerDown(card, { clientX: 200, button: 0, pointerId: 1 });
    fireEvent.pointerMove(card, { clientX: 200 - SWIPE_THRESHOLD_PX / 2, pointerId: 1 });
    await act(async () => fireEvent.pointerUp(card, { clientX: 200 - SWIPE_THRESHOLD_PX / 2, pointerId: 1 }));
    expect(swipes(fetch)).toHaveLength(0);
    fireEvent.pointerDown(card, { clientX: 200, button: 0, pointerId: 1 });
    fireEvent.pointerMove(card, { clientX: 200 - SWIPE_THRESHOLD_PX - 10, pointerId: 1 });
    await act(async () => fireEvent.pointerUp(card, { clientX: 200 - SWIPE_THRESHOLD_PX - 10, pointerId: 1 }));
    expect(swipes(fetch)).toEqual([expect.objectContaining({ id: 1, like: false })]);
  });

  it("shows the match pop-up when a like makes a match", async () => {
    stubApi({
      "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
      "GET /api/swipe.php": start,
      "POST /api/swipe.php": {
        state: "match",
        match: { id: 1, name: "Ada", age: 29, fictional: false, main_image: { thumb_url: "/t.jpg", match_url: "/m.jpg" } },
        status: status({ likes_left: 3 }),
      },
    });
    renderGame();
    await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Like Ada" })));
    expect(await screen.findByRole("dialog", { name: "New like" })).toHaveTextContent("You and Ada like each other.");
  });

  it("at the day's like limit says so, when it resets, and offers premium", async () => {
    stubApi({
      "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
      "GET /api/swipe.php": { profiles: start.profiles, status: status({ likes_left: 0, limit: "likes" }) },
    });
    renderGame();
    expect(await screen.findByText("You're out of likes for today.")).toBeVisible();
    expect(screen.getByText(/^New ones arrive at .+\.$/)).toBeVisible();
    expect(screen.getByText("No likes left today")).toBeVisible();
    expect(screen.getByRole("link", { name: "Get Premium" })).toHaveAttribute("href", "/premium");
    expect(screen.queryByRole("button", { name: "Like Ada" })).toBeNull();
  });

  it("at the like limit on a site that takes no purchases, says so instead of offering premium (issue #25)", async () => {
    stubApi({
      "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
      "GET /api/swipe.php": { profiles: start.profiles, status: status({ likes_left: 0, limit: "likes" }) },
    });
    renderGame(false);
    expect(await screen.findByText("You're out of likes for today.")).toBeVisible();
    expect(screen.getByText("Purchases are unavailable right now. Please come back later.")).toBeVisible();
    expect(screen.queryByRole("link", { name: "Get Premium" })).toBeNull();
  });

  it("out of swipes: no premium offer (premium has the same swipe limit)", async () => {
    stubApi({
      "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
      "GET /api/swipe.php": { profiles: [], status: status({ swipes_left: 0, likes_left: null, limit: "swipes" }) },
    });
    renderGame();
    expect(await screen.findByText("You're out of swipes for today.")).toBeVisible();
    expect(screen.getByText("Unlimited likes")).toBeVisible();
    expect(screen.queryByRole("link", { name: "Get Premium" })).toBeNull();
  });

  it("reloads the status when the limit was reached elsewhere", async () => {
    let limited = false;
    stubApi({
      "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
      "GET /api/swipe.php": () => (limited ? { profiles: [], status: status({ likes_left: 0, limit: "likes" }) } : start),
      "POST /api/swipe.php": () => {
        limited = true;
        return new Response(JSON.stringify({ error: "swipe_likes_exhausted", message: "Out of likes." }), { status: 429 });
      },
    });
    renderGame();
    await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Like Ada" })));
    expect(await screen.findByText("You're out of likes for today.")).toBeVisible();
    // The limit message instead of the server's error.
    expect(screen.queryByText("Out of likes.")).toBeNull();
  });

  it("says when nobody is left to swipe", async () => {
    stubApi({
      "GET /api/badges.php": { new_likes: 0, unread_messages: 0 },
      "GET /api/swipe.php": { profiles: [], status: status() },
    });
    renderGame();
    expect(await screen.findByText(/Nobody new to swipe right now/)).toBeVisible();
    expect(screen.getByRole("link", { name: "Search members" })).toHaveAttribute("href", "/members");
  });
});
