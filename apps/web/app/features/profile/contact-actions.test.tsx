import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAsMember, testUser } from "../../test-utils";
import { ContactActions } from "./contact-actions";

const bea = { id: 9, name: "Bea" };

describe("contact actions on a profile", () => {
  it("lead a member to the conversation, the gift with its picker open", () => {
    renderAsMember(<ContactActions profile={bea} />, { user: testUser() });
    expect(screen.getByRole("link", { name: "Send Bea a message" })).toHaveAttribute("href", "/members/9/chat");
    expect(screen.getByRole("link", { name: "Send Bea a gift" })).toHaveAttribute("href", "/members/9/chat?gift=1");
  });
});
