import { render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { describe, expect, it } from "vitest";
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
});
