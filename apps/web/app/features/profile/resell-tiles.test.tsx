import { render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { describe, expect, it } from "vitest";
import en from "../../i18n/locales/en.json";
import { ResellTiles } from "./resell-tiles";

const renderTiles = (tiles: Parameters<typeof ResellTiles>[0]["tiles"]) =>
  render(
    <IntlProvider locale="en" messages={en}>
      <ResellTiles tiles={tiles} />
    </IntlProvider>,
  );

describe("ResellTiles", () => {
  it("links each partner the site configured, in a new tab, marked as sponsored", () => {
    renderTiles([
      { kind: "camera", url: "https://cams.example/?ref=a", partner: "LiveCams" },
      { kind: "resell", url: "https://singles.example/", partner: "Singles Europe" },
    ]);
    expect(screen.getByRole("heading", { name: "From our partners" })).toBeInTheDocument();
    const cams = screen.getByRole("link", { name: /Visit LiveCams/ });
    expect(cams).toHaveAttribute("href", "https://cams.example/?ref=a");
    expect(cams).toHaveAttribute("target", "_blank");
    expect(cams.getAttribute("rel")?.split(" ")).toEqual(expect.arrayContaining(["noopener", "noreferrer", "sponsored"]));
    expect(screen.getByText("Live on camera")).toBeInTheDocument();
    expect(screen.getByText("Meet even more singles at our partner site Singles Europe.")).toBeInTheDocument();
  });

  it("shows nothing without tiles", () => {
    const { container } = renderTiles([]);
    expect(container).toBeEmptyDOMElement();
  });
});
