import { fireEvent, render, screen, within } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import en from "../i18n/locales/en.json";
import { creditBadgeVariant, MemberNav, type NavMember, navMemberOf } from "./top-nav";

const member = (overrides: Partial<NavMember> = {}): NavMember => ({
  name: "Sam",
  thumbUrl: null,
  paidUser: false,
  credits: 50,
  unreadMessages: 0,
  newLikes: 0,
  newVisitors: 0,
  ...overrides,
});

let current: NavMember;
let onLogout = () => {};

function NavInIntl() {
  return (
    <IntlProvider locale="en" messages={en}>
      <MemberNav member={current} onLogout={onLogout} />
    </IntlProvider>
  );
}

const Stub = createRoutesStub([{ path: "/", Component: NavInIntl }]);

function renderNav(value: NavMember) {
  current = value;
  return render(<Stub />);
}

describe("member navigation", () => {
  it("caps the unread and new-likes badges at 99+", () => {
    renderNav(member({ unreadMessages: 100, newLikes: 99 }));
    expect(screen.getByRole("link", { name: /Messages/ })).toHaveTextContent(/^Messages99\+$/);
    expect(screen.getByRole("link", { name: /Likes/ })).toHaveTextContent(/^Likes99$/);
  });

  it("shows the new profile visitors on the account menu's entry, capped at 99+ (issue #29)", () => {
    const many = renderNav(member({ name: "Robin", newVisitors: 120 }));
    fireEvent.click(screen.getByRole("button", { name: "Account menu of Robin" }));
    expect(screen.getByRole("link", { name: /Profile visitors/ })).toHaveTextContent(/^Profile visitors99\+$/);
    expect(screen.getByText("99+")).toHaveAttribute("aria-label", "120 new visitors");
    many.unmount();
    renderNav(member({ name: "Robin" }));
    fireEvent.click(screen.getByRole("button", { name: "Account menu of Robin" }));
    expect(screen.getByRole("link", { name: /Profile visitors/ })).toHaveTextContent(/^Profile visitors$/);
  });

  it("shows no badge for zero", () => {
    renderNav(member());
    expect(within(screen.getByRole("link", { name: /Messages/ })).queryByText(/\d/)).toBeNull();
  });

  it("offers Get Premium to free members and Credits to paid members", () => {
    const free = renderNav(member());
    expect(screen.getByRole("link", { name: /Get Premium/ }).getAttribute("href")).toBe("/premium");
    free.unmount();
    renderNav(member({ paidUser: true }));
    expect(screen.getByRole("link", { name: /Credits/ }).getAttribute("href")).toBe("/credits");
  });

  it("has the account menu with the member's name", () => {
    renderNav(member({ name: "Robin" }));
    expect(screen.getByRole("button", { name: "Account menu of Robin" })).toBeVisible();
  });

  it("shows the credit badge at 10 or fewer credits: warning above 0, danger at 0", () => {
    expect(creditBadgeVariant(11)).toBeNull();
    expect(creditBadgeVariant(10)).toBe("warning");
    expect(creditBadgeVariant(1)).toBe("warning");
    expect(creditBadgeVariant(0)).toBe("danger");
    renderNav(member({ paidUser: true, credits: 0 }));
    const badge = within(screen.getByRole("link", { name: /Credits/ })).getByText("0");
    expect(badge.className).toContain("bg-danger");
  });

  it("logs out from the account menu with a button, not a link", () => {
    onLogout = vi.fn();
    renderNav(member({ name: "Robin" }));
    fireEvent.click(screen.getByRole("button", { name: "Account menu of Robin" }));
    fireEvent.click(screen.getByRole("button", { name: "Logout" }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it("takes name, thumbnail, credits and premium from the user", () => {
    const user = {
      profile: { id: 1, name: "Kim", status: "active", gender: "female", seeking: "male", main_image: null },
      paid_user: true,
      credits: 7,
    } as Parameters<typeof navMemberOf>[0];
    const nav = navMemberOf(user);
    expect(nav).toEqual({
      name: "Kim",
      thumbUrl: null,
      paidUser: true,
      credits: 7,
      unreadMessages: 0,
      newLikes: 0,
      newVisitors: 0,
    });
    expect(navMemberOf({ ...user, paid_user: false }, { newLikes: 3, unreadMessages: 2, newVisitors: 4 })).toMatchObject({
      newLikes: 3,
      unreadMessages: 2,
      newVisitors: 4,
    });
  });
});
