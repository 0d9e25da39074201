import { act, fireEvent, render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../../i18n/locales/en.json";
import { ReportMessageMenu, ReportProfile } from "./report-dialog";

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: unknown) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}
const inIntl = (node: React.ReactNode) =>
  render(
    <IntlProvider locale="en" messages={en}>
      {node}
    </IntlProvider>,
  );

describe("reporting a profile", () => {
  it("asks for a reason, sends it with the optional words, and thanks the member", async () => {
    const fetch = answer(200, { id: 5 });
    inIntl(<ReportProfile profile={{ id: 9, name: "Bea" }} />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Report Bea" })));
    const dialog = screen.getByRole("dialog", { name: "Report Bea" });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send report" })));
    expect(fetch).not.toHaveBeenCalled();
    expect(dialog.textContent).toContain("Please choose a reason.");

    await act(async () => fireEvent.click(screen.getByRole("radio", { name: "Scam or asking for money" })));
    fireEvent.change(screen.getByRole("textbox", { name: "Anything else we should know? (optional)" }), {
      target: { value: "Asked for 200 euros" },
    });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send report" })));
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/report.php");
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual({
      profile_id: 9,
      reason: "scam",
      text: "Asked for 200 euros",
    });
    expect(screen.getByRole("status").textContent).toBe("Thank you. Our moderators will look into it.");
    expect(screen.getByRole("button", { name: "Report Bea" })).toBeDisabled();
  });

  it("shows the server's message when the report is refused", async () => {
    answer(409, { error: "report_duplicate", message: "You have already reported this. We are looking into it." });
    inIntl(<ReportProfile profile={{ id: 9, name: "Bea" }} />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Report Bea" })));
    await act(async () => fireEvent.click(screen.getByRole("radio", { name: "Fake profile" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send report" })));
    expect(screen.getByRole("dialog").textContent).toContain("You have already reported this.");
  });
});

describe("a received message's menu", () => {
  it("opens on the menu button and reports the message", async () => {
    const fetch = answer(200, { id: 6 });
    inIntl(<ReportMessageMenu messageId={44} name="Tom" />);
    const toggle = screen.getByRole("button", { name: "Message options" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await act(async () => fireEvent.click(toggle));
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Report message" })));
    expect(screen.getByRole("dialog", { name: "Report a message from Tom" })).toBeVisible();
    await act(async () => fireEvent.click(screen.getByRole("radio", { name: "Harassment or threats" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send report" })));
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual({ message_id: 44, reason: "harassment" });
    expect(screen.getByRole("status").textContent).toBe("Reported");
  });
});
