import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAsMember, testUser } from "../../test-utils";
import { ContactActions, LoginToContact } from "./contact-actions";

const bea = { id: 9, name: "Bea" };

describe("contact actions on a profile", () => {
  it("lead a member to the conversation, the gift with its picker open", () => {
    renderAsMember(<ContactActions profile={bea} />, { user: testUser() });
    expect(screen.getByRole("link", { name: "Send Bea a message" })).toHaveAttribute("href", "/members/9/chat");
    expect(screen.getByRole("link", { name: "Send Bea a gift" })).toHaveAttribute("href", "/members/9/chat?gift=1");
  });

  it("answer a visitor with the spec's login prompts (spec §6)", async () => {
    renderAsMember(<LoginToContact profile={bea} />, { user: null });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send Bea a message" })));
    expect(await screen.findByRole("dialog", { name: "You need to be logged in to chat" })).toBeVisible();
    expect(screen.getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Close" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send Bea a gift" })));
    expect(await screen.findByRole("dialog", { name: "You need to be logged in to send a gift to Bea" })).toBeVisible();
  });
});
