import type { User } from "@app/contract";
import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { renderAsMember } from "../../test-utils";
import { ADD_PHOTOS_KEY, ProfileAlerts, showAddPhotosAlert } from "./profile-alerts";

const mainImage = {
  filename: "1.jpg",
  thumb_filename: "1-thumb.jpg",
  status: "active" as const,
  url: "/cdn/1.jpg",
  thumb_url: "/cdn/1-thumb.jpg",
};

function user(withPhoto = false): User {
  return {
    id: 7,
    email: "sam@example.com",
    status: "active",
    profile: {
      id: 7,
      name: "Sam",
      status: "active",
      gender: "male",
      seeking: "female",
      main_image: withPhoto ? mainImage : null,
    },
    paid_user: false,
    credits: 20,
    fictional_icon: "masks",
    language: "en",
    notifications_disabled: [],
    push_subscription: false,
    signup_date: "2026-01-01T00:00:00.000Z",
    invisible: false,
    hide_presence: false,
  };
}

describe("add-photos alert rule (spec §2)", () => {
  it("shows to a member whose profile has no main image", () => {
    expect(showAddPhotosAlert(user(), "/members")).toBe(true);
    expect(showAddPhotosAlert(user(), "/members/42")).toBe(true);
    expect(showAddPhotosAlert(user(), "/")).toBe(true);
  });

  it("does not show with a main image, nor to visitors", () => {
    expect(showAddPhotosAlert(user(true), "/members")).toBe(false);
    expect(showAddPhotosAlert(null, "/members")).toBe(false);
  });

  it("is not shown on profile, signup, activate-done, premium, notifications, directdebit or settings", () => {
    for (const path of [
      "/profile",
      "/signup",
      "/activate/done",
      "/premium",
      "/notifications",
      "/directdebit",
      "/settings",
      "/profile/",
    ]) {
      expect(showAddPhotosAlert(user(), path), path).toBe(false);
    }
    expect(showAddPhotosAlert(user(), "/activate/error")).toBe(true);
  });
});

function renderAlerts(member: User | null, path = "/members") {
  return renderAsMember(<ProfileAlerts />, { user: member, path });
}

describe("add-photos alert", () => {
  afterEach(() => window.localStorage.clear());

  it("links to /profile and remembers its dismissal with a timestamp", async () => {
    const view = renderAlerts(user());
    const link = await screen.findByRole("link", { name: "Add photos and a bio" });
    expect(link.getAttribute("href")).toBe("/profile");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Close" })));
    expect(screen.queryByRole("link", { name: "Add photos and a bio" })).toBeNull();
    const stored = window.localStorage.getItem(ADD_PHOTOS_KEY);
    expect(stored && !Number.isNaN(Date.parse(stored))).toBe(true);
    view.unmount();
    renderAlerts(user());
    await act(async () => {});
    expect(screen.queryByRole("link", { name: "Add photos and a bio" })).toBeNull();
  });

  it("shows nothing with a main image, to a visitor or on the profile screen", async () => {
    for (const [member, path] of [
      [user(true), "/members"],
      [null, "/members"],
      [user(), "/profile"],
    ] as const) {
      const view = renderAlerts(member, path);
      await act(async () => {});
      expect(screen.queryByRole("link", { name: "Add photos and a bio" })).toBeNull();
      view.unmount();
    }
  });
});
