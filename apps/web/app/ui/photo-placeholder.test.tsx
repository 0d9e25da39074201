import { fireEvent, render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { describe, expect, it } from "vitest";
import pl from "../i18n/locales/pl.json";
import { PhotoOrPlaceholder, PhotoPlaceholder } from "./photo-placeholder";

describe("the no-photo placeholder (issue #29)", () => {
  it("is an image named after the member, in the page's language", () => {
    render(
      <IntlProvider locale="pl" messages={pl}>
        <PhotoPlaceholder name="Sanne" className="card-img" />
      </IntlProvider>,
    );
    expect(screen.getByRole("img", { name: "Sanne nie ma jeszcze zdjęcia" })).toBeVisible();
  });

  it("stands in for a thumbnail whose file does not load, never a broken image", () => {
    const { container } = render(
      <IntlProvider locale="en">
        <PhotoOrPlaceholder src="/cdn/photos/gone-t.jpg" width={48} height={60} />
      </IntlProvider>,
    );
    const img = container.querySelector("img") as HTMLImageElement;
    expect(img).toHaveAttribute("src", "/cdn/photos/gone-t.jpg");
    expect(screen.queryByTestId("photo-placeholder")).toBeNull();
    fireEvent.error(img);
    expect(container.querySelector("img")).toBeNull();
    expect(screen.getByTestId("photo-placeholder")).toHaveStyle({ width: "48px", height: "60px" });
  });

  it("keeps the name of a thumbnail that names what it is", () => {
    const { container } = render(
      <IntlProvider locale="en">
        <PhotoOrPlaceholder src="/cdn/photos/locked-t.jpg" alt="Send photo 2" width={56} height={70} />
      </IntlProvider>,
    );
    fireEvent.error(container.querySelector("img") as HTMLImageElement);
    expect(screen.getByRole("img", { name: "Send photo 2" })).toContainElement(screen.getByTestId("photo-placeholder"));
  });
});
