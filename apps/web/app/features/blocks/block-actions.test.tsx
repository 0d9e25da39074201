import { act, fireEvent, render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../../i18n/locales/en.json";
import { BlockActions } from "./block-actions";

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: unknown) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

async function renderActions(blocked = false) {
  const onChange = vi.fn();
  render(
    <IntlProvider locale="en" messages={en}>
      <BlockActions profile={{ id: 9, name: "Bea" }} blocked={blocked} onChange={onChange} />
    </IntlProvider>,
  );
  return onChange;
}

describe("block actions", () => {
  it("asks first, then blocks and offers to unblock", async () => {
    const fetch = answer(200, { blocked: true });
    const onChange = await renderActions();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Block Bea" })));
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByRole("dialog", { name: "Block Bea?" })).toBeVisible();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Yes, block Bea" })));
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/block.php");
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ method: "POST", body: JSON.stringify({ id: 9 }) });
    expect(onChange).toHaveBeenCalledWith(true);
    expect(screen.getByRole("button", { name: "Unblock Bea" })).toBeEnabled();
  });

  it("keeps the dialog open with the server's message when blocking fails", async () => {
    answer(404, { error: "not_found", message: "This member does not exist." });
    const onChange = await renderActions();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Block Bea" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Yes, block Bea" })));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole("dialog").textContent).toContain("This member does not exist.");
    expect(screen.queryByRole("button", { name: "Unblock Bea" })).toBeNull();
  });

  it("unblocks without asking", async () => {
    const fetch = answer(200, { blocked: false });
    const onChange = await renderActions(true);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Unblock Bea" })));
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/block.php?id=9");
    expect(onChange).toHaveBeenCalledWith(false);
    expect(screen.getByRole("status").textContent).toBe("Bea is no longer blocked.");
  });
});
