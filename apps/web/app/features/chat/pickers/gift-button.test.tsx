import { GIFT_IDS, type Gift, LOCALE_CODES } from "@app/contract";
import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubApi } from "../../../test-utils";
import { GiftButton } from "./gift-button";
import { catalogues, renderInLocale, wrapped } from "./test-render";

afterEach(() => vi.unstubAllGlobals());

const catalogue: Gift[] = GIFT_IDS.map((id) => ({ id, image_url: `/gifts/${id}.png`, credits: 25 }));

async function openPicker(onPick = vi.fn()) {
  const fetch = stubApi({ "GET /api/gifts.php": { gifts: catalogue } });
  renderInLocale(<GiftButton name="Bea" costs={25} onPick={onPick} />);
  const opener = screen.getByRole("button", { name: "Send a gift" });
  await act(async () => fireEvent.click(opener));
  const dialog = await screen.findByRole("dialog", { name: "Send Bea a gift" });
  await within(dialog).findByRole("list", { name: "Choose a gift" });
  return { fetch, opener, dialog, onPick };
}

describe("gift picker", () => {
  it("lists the catalogue's 14 gifts with their names and prices, loaded when it opens", async () => {
    const { fetch, dialog } = await openPicker();
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(["/api/gifts.php"]);
    const gifts = within(dialog).getAllByRole("button", { pressed: false });
    expect(gifts).toHaveLength(14);
    expect(within(gifts[0] as HTMLElement).getByRole("img", { name: "Rose" })).toHaveAttribute("src", "/gifts/rose.png");
    expect(gifts[0]).toHaveTextContent("25 credits");
    expect(within(dialog).getByRole("img", { name: "Teddy bear" })).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("opens on arrival when asked (the profile's gift action)", async () => {
    stubApi({ "GET /api/gifts.php": { gifts: catalogue } });
    renderInLocale(<GiftButton name="Bea" costs={25} initiallyOpen onPick={vi.fn()} />);
    const dialog = await screen.findByRole("dialog", { name: "Send Bea a gift" });
    expect(await within(dialog).findAllByRole("button", { pressed: false })).toHaveLength(14);
  });

  it("hands the chosen gift and the trimmed text to onPick, then closes", async () => {
    const { dialog, onPick } = await openPicker();
    const rose = within(dialog).getByRole("button", { name: /Rose/ });
    await act(async () => fireEvent.click(rose));
    expect(rose).toHaveAttribute("aria-pressed", "true");
    expect(dialog).toHaveTextContent("Rose: 25 credits");
    fireEvent.change(within(dialog).getByLabelText("Add a message (optional)"), { target: { value: "  For you  " } });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Send" })));
    expect(onPick).toHaveBeenCalledTimes(1);
    expect(onPick).toHaveBeenCalledWith(catalogue[0], "For you");
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("sends a gift without text as an empty text", async () => {
    const { dialog, onPick } = await openPicker();
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: /Pizza/ })));
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Send" })));
    expect(onPick).toHaveBeenCalledWith(catalogue[13], "");
  });

  it("moves focus into the dialog and gives it back to the button when cancelled", async () => {
    const { opener, dialog, onPick } = await openPicker();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" })));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await vi.waitFor(() => expect(opener).toHaveFocus());
    expect(onPick).not.toHaveBeenCalled();
  });

  it("says when the catalogue cannot be loaded and tries again", async () => {
    let fail = true;
    stubApi({
      "GET /api/gifts.php": () =>
        fail ? new Response(JSON.stringify({ error: "internal", message: "Oops" }), { status: 404 }) : { gifts: catalogue },
    });
    renderInLocale(<GiftButton name="Bea" costs={25} onPick={vi.fn()} />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send a gift" })));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The gifts could not be loaded.");
    fail = false;
    await act(async () => fireEvent.click(within(alert).getByRole("button", { name: "Try again" })));
    expect(await screen.findAllByRole("button", { pressed: false })).toHaveLength(14);
  });

  it("cannot be opened while disabled, and closes for good when disabled while open", async () => {
    stubApi({ "GET /api/gifts.php": { gifts: catalogue } });
    const { rerender } = renderInLocale(<GiftButton name="Bea" costs={25} disabled onPick={vi.fn()} />);
    expect(screen.getByRole("button", { name: "Send a gift" })).toBeDisabled();
    const at = (disabled: boolean) => wrapped(<GiftButton name="Bea" costs={25} disabled={disabled} onPick={vi.fn()} />);
    rerender(at(false));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send a gift" })));
    expect(await screen.findByRole("dialog")).toBeInTheDocument();
    rerender(at(true));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    rerender(at(false));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("names every gift of the catalogue in every locale", () => {
    for (const code of LOCALE_CODES) {
      for (const id of GIFT_IDS) expect(catalogues[code][`gift.${id}`], `${code} gift.${id}`).toBeTruthy();
    }
  });
});
