import { render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { describe, expect, it } from "vitest";
import en from "../../i18n/locales/en.json";
import { Avatar } from "./avatar";

describe("a chat avatar without a photo (issue #29)", () => {
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
