import { render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { describe, expect, it } from "vitest";
import { Avatar } from "../features/chat/avatar";
import en from "../i18n/locales/en.json";
import pl from "../i18n/locales/pl.json";
import { PhotoPlaceholder } from "./photo-placeholder";

describe("the no-photo placeholder (issue #29)", () => {
  it("is an image named after the member, in the page's language", () => {
    render(
      <IntlProvider locale="pl" messages={pl}>
        <PhotoPlaceholder name="Sanne" className="card-img" />
      </IntlProvider>,
    );
    expect(screen.getByRole("img", { name: "Sanne nie ma jeszcze zdjęcia" })).toBeVisible();
  });

  it("is decoration in the chat list, where the name is written beside it", () => {
    render(
      <IntlProvider locale="en" messages={en}>
        <Avatar profile={{ name: "Sanne", main_image: null }} />
      </IntlProvider>,
    );
    expect(screen.queryByRole("img")).toBeNull();
    expect(screen.getByTestId("photo-placeholder").getAttribute("aria-hidden")).toBe("true");
    expect(screen.getByTestId("photo-placeholder").querySelector("svg")).not.toBeNull();
  });
});
