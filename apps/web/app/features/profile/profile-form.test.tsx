import { INTEREST_KEYS } from "@app/contract";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../../i18n/locales/en.json";
import { QueryProvider } from "../../lib/query-client";
import { ProfileForm, profileFormUpdate, profileFormValues } from "./profile-form";
import { testOwnProfile as ownProfile } from "./test-profiles";

afterEach(() => vi.unstubAllGlobals());

const loadRegions = async () => ({
  NL: [
    { code: "NH", name: "North Holland" },
    { code: "ZH", name: "South Holland" },
  ],
  BE: [{ code: "VAN", name: "Antwerp" }],
});
const loadInterests = async () =>
  INTEREST_KEYS.map((key) => ({ key, label: (en as Record<string, string>)[`interest.${key}`] ?? key }));

async function renderForm(profile = ownProfile()) {
  render(
    <IntlProvider locale="en" messages={en}>
      <QueryProvider>
        <ProfileForm profile={profile} countries={["NL", "BE", "DE"]} loadRegions={loadRegions} loadInterests={loadInterests} />
      </QueryProvider>
    </IntlProvider>,
  );
  // The interests (and regions) arrive through the query cache.
  await screen.findByRole("checkbox", { name: "Music" });
}

describe("profile form", () => {
  it("turns the form back into the update it sends", () => {
    const values = profileFormValues(ownProfile({ tattoos: null, region: null }));
    expect(profileFormUpdate({ ...values, about: "  Hello  " })).toEqual({
      about: "Hello",
      seeking: "female",
      sexuality: "hetero",
      country: "NL",
      region: null,
      city: "Haarlem",
      relationship_status: "single",
      hair_color: "brown",
      eye_color: null,
      body_type: null,
      tattoos: null,
      interests: ["music"],
    });
  });

  it("shows name, gender and date of birth read-only and the regions of the chosen country", async () => {
    await renderForm();
    expect(screen.getByLabelText("Username")).toHaveProperty("readOnly", true);
    expect(screen.getByLabelText("Gender")).toHaveProperty("value", "Man");
    expect(screen.getByLabelText("Date of birth")).toHaveProperty("value", "April 12, 1990");
    const region = (await screen.findByLabelText("Region")) as HTMLSelectElement;
    expect(region.value).toBe("NH");
    fireEvent.change(screen.getByLabelText("Country"), { target: { value: "BE" } });
    const regionOptions = [...(screen.getByLabelText("Region") as HTMLSelectElement).options].map((o) => o.textContent);
    expect(regionOptions).toEqual(["Not specified", "Antwerp"]);
    fireEvent.change(screen.getByLabelText("Country"), { target: { value: "DE" } });
    expect(screen.queryByLabelText("Region")).toBeNull();
  });

  it("counts the about text and allows at most 12 interests", async () => {
    await renderForm(ownProfile({ interests: INTEREST_KEYS.slice(0, 12) }));
    expect(screen.getByText("8 characters of 2000")).toBeVisible();
    expect(screen.getByText("Choose up to 12 interests (12 chosen).")).toBeVisible();
    const interests = within(screen.getByRole("group", { name: "Interests" }));
    expect(interests.getByRole("checkbox", { name: "Music" })).toHaveProperty("checked", true);
    const unchosen = interests.getByRole("checkbox", { name: (en as Record<string, string>)[`interest.${INTEREST_KEYS[20]}`] });
    expect(unchosen).toHaveProperty("disabled", true);
  });

  it("saves with PUT /api/profile.php and says so", async () => {
    const fetch = vi.fn(async (_url: string, init?: RequestInit) =>
      Response.json({ profile: ownProfile(JSON.parse(String(init?.body))) }),
    );
    vi.stubGlobal("fetch", fetch);
    await renderForm();
    fireEvent.change(screen.getByLabelText("Tell other members about yourself"), { target: { value: "New text" } });
    fireEvent.click(screen.getByRole("checkbox", { name: "Travelling" }));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Save profile" })));
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/profile.php");
    expect(fetch.mock.calls[0]?.[1]?.method).toBe("PUT");
    const body = JSON.parse(String(fetch.mock.calls[0]?.[1]?.body));
    expect(body.about).toBe("New text");
    expect(body.interests).toEqual(["music", "travelling"]);
    expect(screen.getByText("Your profile has been saved.")).toBeVisible();
  });

  it("shows the server's field errors at their fields and focuses the first", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        Response.json(
          {
            error: "validation_failed",
            message: "Some fields are not filled in correctly.",
            fields: { city: "This city is too long.", region: "Choose a region of your country." },
          },
          { status: 422 },
        ),
      ),
    );
    await renderForm();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Save profile" })));
    const city = screen.getByLabelText("City");
    expect(city.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("This city is too long.")).toBeVisible();
    expect(screen.getByLabelText("Region").getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(screen.getByLabelText("Region"));
    expect(screen.queryByText("Your profile has been saved.")).toBeNull();
  });

  it("says when the saved city is not on the map (no distances), but not while a new one is typed", async () => {
    await renderForm(ownProfile({ city: "Atlantis", located: false }));
    const city = screen.getByLabelText("City");
    expect(city.getAttribute("aria-describedby")).toBe("profile-city-hint");
    expect(document.getElementById("profile-city-hint")?.textContent).toMatch(/could not find Atlantis on the map/);
    fireEvent.change(city, { target: { value: "Haarlem" } });
    expect(document.getElementById("profile-city-hint")).toBeNull();
  });

  it("says the about text is in review, or why the last one was rejected (issue #27)", async () => {
    await renderForm(ownProfile({ about: "New text", about_in_review: true }));
    expect(screen.getByTestId("about-review").textContent).toBe(
      "Your new text is being reviewed. Until it is approved, others see your previous text.",
    );
  });

  it("names the rejection reason in the member's language", async () => {
    await renderForm(ownProfile({ about: "Old text", about_rejection: "contact_details" }));
    expect(screen.getByTestId("about-review").textContent).toBe(
      "Your last text was not approved: Contact details (phone, e-mail, social media or links). Others see your previous text.",
    );
  });

  it("shows no review note for an approved text", async () => {
    await renderForm();
    expect(screen.queryByTestId("about-review")).toBeNull();
  });
});
