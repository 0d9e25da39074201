import type { LikeCard, LikesResponse } from "@app/contract";
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderAsMember, stubApi, testUser } from "../../test-utils";
import { LikesOverview, likesHref } from "./likes-overview";

afterEach(() => vi.unstubAllGlobals());

const card = (id: number, name: string, extra: Partial<LikeCard> = {}): LikeCard => ({
  id,
  name,
  age: 30,
  country: "NL",
  city: "Utrecht",
  fictional: false,
  main_image: null,
  distance: null,
  like: "received",
  like_new: false,
  liked_at: "2026-11-20T10:00:00.000Z",
  ...extra,
});

const answer = (overrides: Partial<LikesResponse> = {}): LikesResponse => ({
  type: "received",
  profiles: [card(3, "Noor", { like_new: true }), card(4, "Eva", { like: "match" })],
  liked_by: [
    { id: 3, like_new: true },
    { id: 4, like_new: false },
  ],
  counts: { received: 30, sent: 1, matches: 1, new: 1 },
  page: 1,
  pages: 2,
  ...overrides,
});

describe("likes overview", () => {
  it("lists the tab's cards in the server's order (new first) with their marks, counts and pages", async () => {
    const fetch = stubApi({ "GET /api/likes.php?type=received&page=1": answer() });
    renderAsMember(<LikesOverview type="received" page={1} />, { user: testUser(), path: "/likes" });
    expect(screen.getByRole("status")).toHaveTextContent("Loading likes…");
    expect(await screen.findByRole("heading", { name: "30 members like you." })).toBeVisible();
    expect(fetch).toHaveBeenCalledTimes(1);

    const cards = screen.getAllByRole("listitem").filter((item) => item.querySelector("a.profile-card"));
    expect(cards.map((item) => item.querySelector(".card-title")?.textContent)).toEqual(["Noor", "Eva"]);
    expect(within(cards[0] as HTMLElement).getByRole("link")).toHaveAttribute("href", "/likes/m/3");
    expect(within(cards[0] as HTMLElement).getByText("New")).toBeVisible();
    expect(within(cards[1] as HTMLElement).queryByText("New")).toBeNull();
    expect(within(cards[1] as HTMLElement).getByText("Match")).toBeVisible();

    const tabs = screen.getByRole("list", { name: "Your likes" });
    expect(within(tabs).getByRole("link", { name: /Liked me/ })).toHaveAttribute("aria-current", "page");
    expect(within(tabs).getByRole("link", { name: /Liked me/ })).toHaveTextContent("Liked me301 new");
    expect(within(tabs).getByRole("link", { name: /I liked/ })).toHaveAttribute("href", "/likes/sent");
    expect(screen.getByRole("link", { name: "Next page" })).toHaveAttribute("href", "/likes/received?page=2");
  });

  it("says what each empty tab is for", async () => {
    stubApi({
      "GET /api/likes.php?type=matches&page=1": answer({
        type: "matches",
        profiles: [],
        liked_by: [],
        counts: { received: 0, sent: 0, matches: 0, new: 0 },
        pages: 0,
      }),
    });
    renderAsMember(<LikesOverview type="matches" page={1} />, { user: testUser() });
    expect(await screen.findByRole("heading", { name: "No matches yet." })).toBeVisible();
    expect(screen.getByText(/When you and another member like each other/)).toBeVisible();
  });

  it("offers a retry when the list cannot be loaded", async () => {
    stubApi({
      "GET /api/likes.php": new Response(JSON.stringify({ error: "forbidden", message: "Not allowed." }), { status: 403 }),
    });
    renderAsMember(<LikesOverview type="sent" page={1} />, { user: testUser() });
    expect(await screen.findByRole("alert")).toHaveTextContent("Not allowed.");
    expect(screen.getByRole("button", { name: "Try again" })).toBeVisible();
  });

  it("links the tabs' pages", () => {
    expect(likesHref("received")).toBe("/likes/received");
    expect(likesHref("sent", 1)).toBe("/likes/sent");
    expect(likesHref("matches", 3)).toBe("/likes/matches?page=3");
  });
});
