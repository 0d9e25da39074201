import type { Gif } from "@app/contract";
import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubApi } from "../../../test-utils";
import { GIF_SEARCH_DEBOUNCE_MS, GifButton } from "./gif-button";
import { renderInLocale } from "./test-render";

beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const gif = (id: string, title: string): Gif => ({
  id,
  title,
  url: `/gifs/${id}.gif`,
  preview_url: `/gifs/${id}-preview.gif`,
  width: 200,
  height: 150,
});
const popular = [gif("wave", "Waving hello"), gif("heart", "Beating heart"), gif("laugh", "Laughing")];
const cats = [gif("cat", "Cat on a keyboard")];

/**
 * Moves the clock by `ms`, then lets the stubbed fetch answer and React render: a few real turns for the
 * response, each followed by the query cache's notifications (scheduled with the faked setTimeout 0).
 */
async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  for (let turn = 0; turn < 5; turn++) {
    await act(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(0);
    });
  }
}

async function openSearch(routes: Record<string, unknown>, locale: "en" | "nl" = "en", onPick = vi.fn()) {
  const fetch = stubApi(routes);
  renderInLocale(<GifButton costs={10} onPick={onPick} />, locale);
  const opener = screen.getByRole("button", { name: locale === "nl" ? "Stuur een GIF" : "Send a GIF" });
  expect(opener).toHaveTextContent("GIF");
  await act(async () => fireEvent.click(opener));
  await wait(0);
  const dialog = screen.getByRole("dialog");
  return { fetch, dialog, opener, onPick };
}

const searches = (fetch: ReturnType<typeof stubApi>) =>
  fetch.mock.calls.map(([url]) => url).filter((url) => url.startsWith("/api/gifs.php"));

describe("GIF search", () => {
  it("searches in the interface language's gifLocale, once typing pauses for 300 ms", async () => {
    const { fetch, dialog } = await openSearch(
      {
        "GET /api/gifs.php?locale=nl_NL": { gifs: popular, provider: "local" },
        "GET /api/gifs.php?q=kat&locale=nl_NL": { gifs: cats, provider: "local" },
      },
      "nl",
    );
    expect(dialog).toHaveAccessibleName("Stuur een GIF");
    const field = within(dialog).getByLabelText("Zoek GIF's");
    expect(field).toHaveFocus();
    // Opening shows the popular ones (no q).
    expect(searches(fetch)).toEqual(["/api/gifs.php?locale=nl_NL"]);
    expect(within(dialog).getAllByRole("img")).toHaveLength(3);

    for (const typed of ["k", "ka", "kat"]) {
      fireEvent.change(field, { target: { value: typed } });
      await wait(100);
    }
    await wait(GIF_SEARCH_DEBOUNCE_MS - 100 - 1);
    expect(searches(fetch)).toHaveLength(1);
    await wait(1);
    expect(searches(fetch)).toEqual(["/api/gifs.php?locale=nl_NL", "/api/gifs.php?q=kat&locale=nl_NL"]);
    expect(within(dialog).getByRole("img", { name: "Cat on a keyboard" })).toBeInTheDocument();
    expect(within(dialog).getByRole("status")).toHaveTextContent("1 GIF gevonden");
    expect(dialog).toHaveTextContent("Een GIF kost 10 credits");
  });

  it("searches at once on Enter", async () => {
    const { fetch, dialog } = await openSearch({
      "GET /api/gifs.php?locale=en_US": { gifs: popular, provider: "local" },
      "GET /api/gifs.php?q=cat&locale=en_US": { gifs: cats, provider: "local" },
    });
    const field = within(dialog).getByLabelText("Search GIFs");
    fireEvent.change(field, { target: { value: " cat " } });
    await act(async () => fireEvent.submit(field));
    await wait(0);
    expect(searches(fetch)).toEqual(["/api/gifs.php?locale=en_US", "/api/gifs.php?q=cat&locale=en_US"]);
    await wait(GIF_SEARCH_DEBOUNCE_MS);
    expect(searches(fetch)).toHaveLength(2);
  });

  it("says when nothing was found", async () => {
    const { dialog } = await openSearch({
      "GET /api/gifs.php?locale=en_US": { gifs: popular, provider: "local" },
      "GET /api/gifs.php?q=zzzz&locale=en_US": { gifs: [], provider: "local" },
    });
    fireEvent.change(within(dialog).getByLabelText("Search GIFs"), { target: { value: "zzzz" } });
    await wait(GIF_SEARCH_DEBOUNCE_MS);
    expect(dialog).toHaveTextContent("No GIFs found for “zzzz”");
    expect(within(dialog).queryAllByRole("img")).toHaveLength(0);
    expect(within(dialog).getByRole("status")).toHaveTextContent("0 GIFs found");
  });

  it("shows each result as a button with its preview, sized and lazy; picking one calls onPick and closes", async () => {
    const { dialog, opener, onPick } = await openSearch({
      "GET /api/gifs.php?locale=en_US": { gifs: popular, provider: "local" },
    });
    const heart = within(dialog).getByRole("button", { name: "Beating heart" });
    const image = within(heart).getByRole("img");
    expect(image).toHaveAttribute("src", "/gifs/heart-preview.gif");
    expect(image).toHaveAttribute("width", "200");
    expect(image).toHaveAttribute("height", "150");
    expect(image).toHaveAttribute("loading", "lazy");
    await act(async () => fireEvent.click(heart));
    expect(onPick).toHaveBeenCalledWith(popular[1]);
    await wait(1_000);
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(opener).toHaveFocus();
  });

  it("moves between the results with the arrow keys", async () => {
    const { dialog } = await openSearch({ "GET /api/gifs.php?locale=en_US": { gifs: popular, provider: "local" } });
    const [first, second, third] = within(dialog).getAllByRole("button", { name: /Waving|Beating|Laughing/ });
    first?.focus();
    fireEvent.keyDown(first as HTMLElement, { key: "ArrowRight" });
    expect(second).toHaveFocus();
    fireEvent.keyDown(second as HTMLElement, { key: "End" });
    expect(third).toHaveFocus();
    fireEvent.keyDown(third as HTMLElement, { key: "ArrowLeft" });
    expect(second).toHaveFocus();
    fireEvent.keyDown(second as HTMLElement, { key: "Home" });
    expect(first).toHaveFocus();
  });

  it("credits GIPHY and Tenor where their results are shown, and nobody for the local catalogue", async () => {
    const { dialog } = await openSearch({
      "GET /api/gifs.php?locale=en_US": { gifs: popular, provider: "giphy" },
      "GET /api/gifs.php?q=cat&locale=en_US": { gifs: cats, provider: "tenor" },
      "GET /api/gifs.php?q=dog&locale=en_US": { gifs: cats, provider: "local" },
    });
    expect(dialog).toHaveTextContent("Powered by GIPHY");
    const field = within(dialog).getByLabelText("Search GIFs");
    fireEvent.change(field, { target: { value: "cat" } });
    await wait(GIF_SEARCH_DEBOUNCE_MS);
    expect(dialog).toHaveTextContent("Powered by Tenor");
    fireEvent.change(field, { target: { value: "dog" } });
    await wait(GIF_SEARCH_DEBOUNCE_MS);
    expect(dialog).not.toHaveTextContent("Powered by");
  });

  it("says when the search failed and tries again", async () => {
    let fail = true;
    await openSearch({
      "GET /api/gifs.php?locale=en_US": () =>
        fail
          ? new Response(JSON.stringify({ error: "not_found", message: "Nope" }), { status: 404 })
          : { gifs: cats, provider: "local" },
    });
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("The GIFs could not be loaded.");
    fail = false;
    await act(async () => fireEvent.click(within(alert).getByRole("button", { name: "Try again" })));
    await wait(0);
    expect(screen.getByRole("button", { name: "Cat on a keyboard" })).toBeInTheDocument();
  });
});
