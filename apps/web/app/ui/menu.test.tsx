import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Menu, MenuDivider } from "./menu";

function renderMenu(onChoose = vi.fn()) {
  render(
    <>
      <Menu id="test-menu" toggleClassName="btn-primary" toggleLabel="Account menu of Robin" toggle="Robin">
        <a className="dropdown-item" href="/profile">
          My profile
        </a>
        <a className="dropdown-item" href="/settings">
          Settings
        </a>
        <MenuDivider />
        <button type="button" className="dropdown-item" onClick={onChoose}>
          Logout
        </button>
      </Menu>
      <button type="button">Elsewhere</button>
    </>,
  );
  return { toggle: screen.getByRole("button", { name: "Account menu of Robin" }), onChoose };
}

const menuOf = (toggle: HTMLElement) => toggle.nextElementSibling as HTMLElement;

describe("the navigation's menu button", () => {
  it("says whether it is open, and renders its items only once first opened", () => {
    const { toggle } = renderMenu();
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("link", { name: "My profile" })).toBeNull();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(menuOf(toggle)).toHaveClass("show");
    expect(screen.getByRole("link", { name: "My profile" })).toBeInTheDocument();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(menuOf(toggle)).not.toHaveClass("show");
  });

  it("opens from the keyboard on the first item (ArrowDown) or the last (ArrowUp)", () => {
    const { toggle } = renderMenu();
    toggle.focus();
    fireEvent.keyDown(toggle, { key: "ArrowDown" });
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("link", { name: "My profile" })).toHaveFocus();
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: "Escape" });
    fireEvent.keyDown(toggle, { key: "ArrowUp" });
    expect(screen.getByRole("button", { name: "Logout" })).toHaveFocus();
  });

  it("moves between the items with the arrows, Home and End, skipping the divider", () => {
    const { toggle } = renderMenu();
    fireEvent.keyDown(toggle, { key: "ArrowDown" });
    const at = () => document.activeElement as HTMLElement;
    fireEvent.keyDown(at(), { key: "ArrowDown" });
    expect(screen.getByRole("link", { name: "Settings" })).toHaveFocus();
    fireEvent.keyDown(at(), { key: "ArrowDown" });
    expect(screen.getByRole("button", { name: "Logout" })).toHaveFocus();
    fireEvent.keyDown(at(), { key: "ArrowDown" });
    expect(screen.getByRole("button", { name: "Logout" })).toHaveFocus();
    fireEvent.keyDown(at(), { key: "ArrowUp" });
    expect(screen.getByRole("link", { name: "Settings" })).toHaveFocus();
    fireEvent.keyDown(at(), { key: "Home" });
    expect(screen.getByRole("link", { name: "My profile" })).toHaveFocus();
    fireEvent.keyDown(at(), { key: "End" });
    expect(screen.getByRole("button", { name: "Logout" })).toHaveFocus();
  });

  it("closes on Escape and gives the focus back to the toggle", () => {
    const { toggle } = renderMenu();
    fireEvent.keyDown(toggle, { key: "ArrowDown" });
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: "Escape" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(toggle).toHaveFocus();
  });

  it("closes when an item is chosen, on a click outside, and when the focus leaves it", () => {
    const { toggle, onChoose } = renderMenu();
    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole("button", { name: "Logout" }));
    expect(onChoose).toHaveBeenCalledTimes(1);
    expect(toggle).toHaveAttribute("aria-expanded", "false");

    fireEvent.click(toggle);
    fireEvent.pointerDown(document.body);
    expect(toggle).toHaveAttribute("aria-expanded", "false");

    fireEvent.click(toggle);
    act(() => screen.getByRole("button", { name: "Elsewhere" }).focus());
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });
});
