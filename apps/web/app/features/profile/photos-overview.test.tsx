import type { Photo } from "@app/contract";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../../i18n/locales/en.json";
import { renderAsMember, testUser } from "../../test-utils";
import { PhotosOverview, photoBadges } from "./photos-overview";

afterEach(() => vi.unstubAllGlobals());

function photo(id: number, position: number, overrides: Partial<Photo> = {}): Photo {
  return {
    id,
    url: `/cdn/${id}.jpg`,
    thumb_url: `/cdn/${id}-thumb.jpg`,
    status: "active",
    rejection_reason: null,
    is_main: false,
    private: false,
    position,
    ...overrides,
  };
}

function renderOverview(photos: Photo[], limit: number, paidUser = false) {
  const Stub = createRoutesStub([
    {
      path: "/profile",
      Component: () => (
        <IntlProvider locale="en" messages={en}>
          <PhotosOverview photos={photos} limit={limit} paidUser={paidUser} />
        </IntlProvider>
      ),
    },
  ]);
  return render(<Stub initialEntries={["/profile"]} />);
}

const card = (id: number) => {
  const element = document.querySelector<HTMLElement>(`[data-photo-id="${id}"]`);
  if (!element) throw new Error(`no card for photo ${id}`);
  return element;
};
const badgeTexts = (id: number) => [...card(id).querySelectorAll(".badge")].map((b) => b.textContent);

describe("photo badges", () => {
  it("marks the main photo (success), premium-only (info) and review state (warning)", () => {
    expect(photoBadges({ is_main: true, private: false, status: "active" })).toEqual([
      { id: "profile.badge_main", variant: "success" },
    ]);
    expect(photoBadges({ is_main: false, private: true, status: "pending" })).toEqual([
      { id: "profile.badge_private", variant: "info" },
      { id: "profile.badge_pending", variant: "warning" },
    ]);
    expect(photoBadges({ is_main: false, private: false, status: "rejected" })).toEqual([
      { id: "profile.badge_rejected", variant: "warning" },
    ]);
    expect(photoBadges({ is_main: false, private: false, status: "active" })).toEqual([]);
  });
});

describe("images overview", () => {
  it("shows each photo in order with its badges, the premium-member badge and the upload for a premium member", () => {
    renderOverview(
      [
        photo(4, 3, { status: "rejected" }),
        photo(1, 0, { is_main: true }),
        photo(2, 1, { private: true }),
        photo(3, 2, { status: "pending" }),
      ],
      25,
      true,
    );
    const images = screen.getAllByRole("img").map((img) => img.getAttribute("alt"));
    expect(images).toEqual(["Your photo 1", "Your photo 2", "Your photo 3", "Your photo 4"]);
    expect(badgeTexts(1)).toEqual(["Main photo"]);
    expect(badgeTexts(2)).toEqual(["Premium only"]);
    expect(badgeTexts(3)).toEqual(["Under review"]);
    expect(badgeTexts(4)).toEqual(["Rejected"]);
    expect(card(1).querySelector(".badge")?.className).toContain("bg-success");
    expect(card(2).querySelector(".badge")?.className).toContain("bg-info");
    expect(card(3).querySelector(".badge")?.className).toContain("bg-warning");
    expect(screen.getByText("Premium member")).toBeVisible();
    expect(screen.getByText("4 of 25 photos")).toBeVisible();
    // Actions fit each photo: no "Set as main" on the main or a rejected photo; private photos can be made public.
    const first = within(screen.getByRole("group", { name: "Photo 1" }));
    expect(first.queryByRole("button", { name: "Set as main photo" })).toBeNull();
    expect(first.getByRole("button", { name: "Move left" })).toHaveProperty("disabled", true);
    expect(within(screen.getByRole("group", { name: "Photo 2" })).getByRole("button", { name: "Make public" })).toBeEnabled();
    expect(
      within(screen.getByRole("group", { name: "Photo 4" })).queryByRole("button", { name: "Set as main photo" }),
    ).toBeNull();
    expect(screen.getByLabelText("Add another photo")).toBeVisible();
    expect(screen.queryByRole("link", { name: /Premium members can add/ })).toBeNull();
  });

  it("at 3 of 3 a free member gets the photo-limit alert with a link to premium, and no upload", () => {
    renderOverview([photo(1, 0, { is_main: true }), photo(2, 1), photo(3, 2, { status: "pending" })], 3);
    expect(screen.getByText("3 of 3 photos")).toBeVisible();
    expect(screen.queryByText("Premium member")).toBeNull();
    const link = screen.getByRole("link", { name: "Premium members can add up to 25 photos" });
    expect(link.getAttribute("href")).toBe("/premium");
    expect(screen.queryByLabelText("Add another photo")).toBeNull();
    expect(document.querySelector('input[type="file"]')).toBeNull();
  });

  it("at the limit on a site that takes no purchases, says so instead of linking to premium (issue #25)", async () => {
    const photos = [photo(1, 0, { is_main: true }), photo(2, 1), photo(3, 2)];
    renderAsMember(<PhotosOverview photos={photos} limit={3} paidUser={false} />, {
      user: testUser(),
      path: "/profile",
      purchasesAvailable: false,
    });
    expect(await screen.findByText("Purchases are unavailable right now. Please come back later.")).toBeVisible();
    expect(screen.getByText(/Premium members can add up to 25 photos/)).toBeVisible();
    expect(screen.queryByRole("link", { name: /Premium members can add/ })).toBeNull();
  });

  it("below the limit a free member can upload and sees no limit alert", () => {
    renderOverview([photo(1, 0, { is_main: true }), photo(2, 1)], 3);
    expect(screen.getByText("2 of 3 photos")).toBeVisible();
    expect(screen.getByLabelText("Add another photo")).toBeVisible();
    expect(screen.queryByRole("link", { name: /Premium members/ })).toBeNull();
  });

  it("invites the first upload when there are no photos", () => {
    renderOverview([], 3);
    expect(screen.getByText("0 of 3 photos")).toBeVisible();
    expect(screen.getByLabelText("Choose a photo")).toBeVisible();
  });

  it("moves a photo with PUT /api/photo.php and keeps focus on it", async () => {
    const moved = [photo(2, 0), photo(1, 1, { is_main: true })];
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => Response.json({ photos: moved, photo_limit: 3 }));
    vi.stubGlobal("fetch", fetch);
    renderOverview([photo(1, 0, { is_main: true }), photo(2, 1)], 3);
    const button = within(screen.getByRole("group", { name: "Photo 1" })).getByRole("button", { name: "Move right" });
    button.focus();
    await act(async () => fireEvent.click(button));
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/photo.php");
    expect(fetch.mock.calls[0]?.[1]?.method).toBe("PUT");
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual({ id: 1, position: 1 });
    expect(badgeTexts(1)).toEqual(["Main photo"]);
    expect(screen.getAllByRole("img").map((img) => img.getAttribute("src"))).toEqual(["/cdn/2-thumb.jpg", "/cdn/1-thumb.jpg"]);
    // Now last: "Move right" is disabled, so focus goes to the other direction on the same photo.
    expect(document.activeElement).toBe(within(card(1)).getByRole("button", { name: "Move left" }));
    expect(screen.getByText("Photo moved to place 2.")).toBeVisible();
  });

  it("deletes a photo after confirming in a dialog that starts on Cancel", async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) =>
      Response.json({ photos: [photo(2, 0, { is_main: true })], photo_limit: 3 }),
    );
    vi.stubGlobal("fetch", fetch);
    renderOverview([photo(1, 0, { is_main: true }), photo(2, 1), photo(3, 2)], 3);
    expect(screen.getByRole("link", { name: /Premium members/ })).toBeVisible();
    await act(async () =>
      fireEvent.click(within(screen.getByRole("group", { name: "Photo 1" })).getByRole("button", { name: "Delete" })),
    );
    const dialog = await screen.findByRole("dialog", { name: "Delete this photo?" });
    expect(within(dialog).getByText(/your next photo becomes your main photo/)).toBeVisible();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Cancel" })));
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Delete photo" })));
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/photo.php?id=1");
    expect(fetch.mock.calls[0]?.[1]?.method).toBe("DELETE");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.getByText("1 of 3 photos")).toBeVisible();
    expect(badgeTexts(2)).toEqual(["Main photo"]);
    // Below the limit again: the upload is back.
    expect(screen.getByLabelText("Add another photo")).toBeVisible();
    await waitFor(() => expect(card(2).contains(document.activeElement)).toBe(true));
  });

  it("says why a photo was rejected beside it, and that photos in review are shown once approved (issue #27)", () => {
    renderOverview(
      [photo(1, 0, { is_main: true, status: "pending" }), photo(2, 1, { status: "rejected", rejection_reason: "explicit" })],
      3,
    );
    expect(within(card(2)).getByText("Not approved: Nudity or sexual content. Others do not see this photo.")).toBeVisible();
    expect(within(card(2)).queryByRole("button", { name: "Set as main photo" })).toBeNull();
    expect(within(card(1)).queryByText(/Not approved/)).toBeNull();
    expect(badgeTexts(1)).toContain("Under review");
    expect(screen.getByText("Photos marked “Under review” are shown to others once we have approved them.")).toBeVisible();
  });
});
