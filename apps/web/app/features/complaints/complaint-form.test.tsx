import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiError, bodiesOf, renderAsMember, stubApi, testMemberResponse, testUser } from "../../test-utils";
import { ComplaintForm } from "./complaint-form";

afterEach(() => vi.unstubAllGlobals());

const fiona = testMemberResponse({
  name: "Fake Fiona",
  age: 29,
  main_image: null,
  photos: [],
  locked_photos: 0,
  photo_lock: null,
});

const DESCRIPTION = "He keeps sending me messages after I asked him to stop.";

function fill(description = DESCRIPTION) {
  fireEvent.change(screen.getByLabelText("What is it about?"), { target: { value: "harassment" } });
  fireEvent.change(screen.getByLabelText("Describe what happened"), { target: { value: description } });
}

const submit = () => act(async () => fireEvent.click(screen.getByRole("button", { name: "Send complaint" })));

describe("the complaint form (/complaints)", () => {
  it("asks a visitor for an e-mail address, shows the server's field errors and then the reference", async () => {
    let calls = 0;
    const fetch = stubApi({
      "POST /api/complaint.php": () =>
        ++calls === 1
          ? new Response(
              JSON.stringify({
                error: "validation_failed",
                message: "Some fields are not filled in correctly.",
                fields: { email: "Invalid email" },
              }),
              { status: 422 },
            )
          : { reference: "C-7KQ4-M2XD", email: "sam@example.org" },
    });
    renderAsMember(<ComplaintForm profileId={null} />, { user: null, path: "/complaints" });
    const topics = screen.getByLabelText("What is it about?");
    expect([...topics.querySelectorAll("option")].map((option) => option.textContent)).toEqual([
      "Choose a topic",
      "A fake profile",
      "Harassment or abuse",
      "A payment",
      "Privacy",
      "A technical problem",
      "Something else",
    ]);

    // Nothing filled in: the form's own checks, no call.
    await submit();
    expect(screen.getByLabelText("Describe what happened")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Please describe it in at least 20 characters.")).toBeVisible();
    expect(screen.getByText("Please enter your e-mail address.")).toBeVisible();
    expect(fetch).not.toHaveBeenCalled();

    fill();
    expect(screen.getByText(`${DESCRIPTION.length} of 4000 characters (at least 20)`)).toBeVisible();
    const email = screen.getByLabelText("Your e-mail address");
    expect(email).toHaveAttribute("autocomplete", "email");
    fireEvent.change(email, { target: { value: "sam@example" } });
    await submit();
    expect(await screen.findByText("Invalid email")).toBeVisible();
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveFocus();

    fireEvent.change(email, { target: { value: "sam@example.org" } });
    await submit();
    expect(
      await screen.findByText((_, node) =>
        node?.tagName === "P"
          ? node.textContent ===
            "We received your complaint. Your reference is C-7KQ4-M2XD. We sent a confirmation to sam@example.org."
          : false,
      ),
    ).toBeVisible();
    expect(bodiesOf(fetch, "POST", "/api/complaint.php")).toEqual([
      { subject: "harassment", description: DESCRIPTION, email: "sam@example" },
      { subject: "harassment", description: DESCRIPTION, email: "sam@example.org" },
    ]);
  });

  it("sends a member's complaint without an e-mail field, about the member named in the link", async () => {
    const fetch = stubApi({
      "GET /api/member.php?id=42": fiona,
      "POST /api/complaint.php": { reference: "C-ABCD-EFGH", email: "member@example.org" },
    });
    renderAsMember(<ComplaintForm profileId={42} />, { user: testUser(), path: "/complaints?profile=42" });
    expect(screen.queryByLabelText("Your e-mail address")).toBeNull();
    expect(screen.getByText("Member concerned")).toBeVisible();
    expect(await screen.findByText("Fake Fiona")).toBeVisible();
    fill();
    await submit();
    expect(await screen.findByText("C-ABCD-EFGH")).toBeVisible();
    expect(bodiesOf(fetch, "POST", "/api/complaint.php")).toEqual([
      { subject: "harassment", description: DESCRIPTION, profile_id: 42 },
    ]);
  });

  it("shows the id when the member cannot be loaded, and a refusal above the form", async () => {
    stubApi({ "POST /api/complaint.php": apiError(429, "rate_limited", "Too many requests. Please wait a moment.") });
    renderAsMember(<ComplaintForm profileId={7} />, { user: testUser(), path: "/complaints?profile=7" });
    expect(await screen.findByText("Member #7")).toBeVisible();
    fill();
    await submit();
    expect(await screen.findByText("Too many requests. Please wait a moment.")).toBeVisible();
    expect(screen.getByRole("button", { name: "Send complaint" })).toBeEnabled();
  });
});
