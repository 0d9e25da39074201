import type { StaffSite } from "@app/contract";
import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bodiesOf, renderAsMember, stubApi } from "../../../test-utils";
import { SiteSettingsForm } from "./settings-form";

afterEach(() => vi.unstubAllGlobals());

const SERVED = ["NL", "BE", "DE"];
const site: StaffSite = {
  id: 1,
  host: "localhost",
  is_default: true,
  settings: {
    name: "Amoria",
    index_title: "",
    description: "",
    domain_language: null,
    support_email: "support@amoria.example",
    countries: ["NL", "BE", "DE"],
    visible_profile_fields: ["gender", "age"],
    minimum_message_costs: { NL: { costs: 0.99, currency: "EUR" }, DE: { costs: 0.99, currency: "EUR" } },
    enable_site_entry_popup: "yes",
    site_entry_popup_countries: ["DE"],
    search_fields: ["gender", "country"],
    signups: "all",
    logged_out_search: "all",
    logged_out_search_trafficsource: "all",
    member_resell: false,
    resell_tiles: [],
    moderation: "after",
    cdn_prefix: "/cdn/",
    message_credits: 10,
    photo_credits: 20,
    gift_credits: 30,
    signup_credits: 20,
    message_length: 2000,
    refund_days: 14,
    fictional_icon: "masks",
  },
};

const render = () =>
  renderAsMember(<SiteSettingsForm site={site} servedCountries={SERVED} />, { user: null, path: "/staff/settings" });

describe("the site settings form (/staff/settings)", () => {
  it("drops a country the site stops serving from the lists that may only name its countries, previews, then saves", async () => {
    const fetch = stubApi({
      "POST /staff/api/settings/1/preview": {
        changes: [{ field: "countries", before: ["NL", "BE", "DE"], after: ["NL", "BE"] }],
      },
      "PUT /staff/api/settings/1": {
        site: { ...site, settings: { ...site.settings, countries: ["NL", "BE"] } },
        changes: [{ field: "countries", before: ["NL", "BE", "DE"], after: ["NL", "BE"] }],
      },
    });
    render();
    const served = screen.getByRole("group", { name: "Countries the site serves" });
    fireEvent.click(within(served).getByLabelText("DE"));
    fireEvent.click(screen.getByRole("button", { name: "Preview changes" }));

    const dialog = await screen.findByRole("dialog", { name: "What changes" });
    expect(within(dialog).getByRole("row", { name: /Countries the site serves/ }).textContent).toContain("NL, BE");
    const [sent] = bodiesOf(fetch, "POST", "/staff/api/settings/1/preview");
    expect(sent).toMatchObject({
      countries: ["NL", "BE"],
      site_entry_popup_countries: [],
      minimum_message_costs: { NL: { costs: 0.99, currency: "EUR" } },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settings saved. Every server uses them within a minute.")).toBeTruthy();
    expect(bodiesOf(fetch, "PUT", "/staff/api/settings/1")).toHaveLength(1);
  });

  it("shows the server's refusal on its field and opens no preview", async () => {
    // The refusal names the field it is about.
    stubApi({
      "POST /staff/api/settings/1/preview": new Response(
        JSON.stringify({
          error: "validation_failed",
          message: "Some fields are not filled in correctly.",
          fields: { message_length: "This value is not valid." },
        }),
        { status: 422 },
      ),
    });
    render();
    fireEvent.change(screen.getByLabelText("Longest message (characters)"), { target: { value: "0" } });
    fireEvent.click(screen.getByRole("button", { name: "Preview changes" }));
    const field = screen.getByLabelText("Longest message (characters)");
    expect(await screen.findByText("This value is not valid.")).toBeTruthy();
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
