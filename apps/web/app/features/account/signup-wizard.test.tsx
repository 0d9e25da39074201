import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderAsMember } from "../../test-utils";
import { SignupWizard } from "./signup-wizard";
import { unconfirmedUser } from "./test-users";

afterEach(() => vi.unstubAllGlobals());

function renderWizard(onLockChange: (locked: boolean) => void, onFinish = vi.fn()) {
  renderAsMember(
    <SignupWizard
      startAt="profile"
      pushPublicKey={null}
      onLockChange={onLockChange}
      onFinish={onFinish}
      profileSteps={[
        {
          id: "photo",
          titleId: "signup.step_photo",
          render: (done) => (
            <button type="button" onClick={done}>
              skip photo
            </button>
          ),
        },
      ]}
    />,
    { user: unconfirmedUser() },
  );
  return onFinish;
}

describe("signup steps", () => {
  it("shows the progress, moves focus to each new step's heading and ends with the e-mail confirmation", async () => {
    const onFinish = renderWizard(() => {});
    expect(screen.getByText("Step 1 of 2")).toBeVisible();
    expect(screen.getByRole("heading", { name: "Add a photo" })).toBeVisible();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "skip photo" })));
    const heading = screen.getByRole("heading", { name: "Confirm your e-mail address" });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText("Step 2 of 2")).toBeVisible();
    expect(screen.getByText("sam@example.com")).toBeVisible();
    fireEvent.click(screen.getByRole("button", { name: "Go to the members" }));
    expect(onFinish).toHaveBeenCalledTimes(1);
  });

  it("resends the activation e-mail", async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => Response.json({ ok: true }));
    vi.stubGlobal("fetch", fetch);
    renderWizard(() => {});
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "skip photo" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send the e-mail again" })));
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/activation.php");
    expect(screen.getByText("We sent the e-mail again.")).toBeVisible();
  });
});
