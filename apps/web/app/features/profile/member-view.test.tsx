import type { MemberProfile } from "@app/contract";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import en from "../../i18n/locales/en.json";
import fr from "../../i18n/locales/fr.json";
import pl from "../../i18n/locales/pl.json";
import { QueryProvider } from "../../lib/query-client";
import { renderAsMember, testUser } from "../../test-utils";
import { PhotoLockMessage } from "./member-photos";
import { MemberView } from "./member-view";
import { testMemberProfile as member } from "./test-profiles";

const CATALOGUES = { en, fr, pl };

function renderView(profile: MemberProfile, locale: keyof typeof CATALOGUES = "en") {
  const loadRegions = vi.fn(async () => ({ NL: [{ code: "NH", name: "North Holland" }] }));
  const Stub = createRoutesStub([
    {
      path: "/members/:id",
      Component: () => (
        <IntlProvider locale={locale} messages={CATALOGUES[locale]}>
          <QueryProvider>
            <MemberView
              profile={profile}
              loadRegions={loadRegions}
              fictionalIcon="masks"
              fictionalWarning="Some profiles are fictional."
              notes={{ body_type: "As the member describes it." }}
            />
          </QueryProvider>
        </IntlProvider>
      ),
    },
  ]);
  render(<Stub initialEntries={[`/members/${profile.id}`]} />);
}

describe("member view", () => {
  it.each([
    ["pl", "female", { sexuality: "Heteroseksualna", relationship: "Wdowa", hair: "Ciemne (brunetka)" }],
    ["pl", "male", { sexuality: "Heteroseksualny", relationship: "Wdowiec", hair: "Ciemne (brunet)" }],
    ["fr", "female", { sexuality: "Hétérosexuelle", relationship: "Veuve", hair: "Brun" }],
    ["fr", "male", { sexuality: "Hétérosexuel", relationship: "Veuf", hair: "Brun" }],
  ] as const)("%s: a %s profile's values take its gender's form, not both (issue #29)", (locale, gender, expected) => {
    const messages = CATALOGUES[locale];
    renderView(member({ gender, sexuality: "hetero", relationship_status: "widowed", hair_color: "brunette" }), locale);
    const details = within(screen.getByRole("region", { name: messages["member.details"] }));
    const value = (labelId: keyof typeof messages) => details.getByText(messages[labelId]).nextElementSibling?.textContent;
    expect({
      sexuality: value("member.sexuality"),
      relationship: value("member.relationship_status"),
      hair: value("member.hair_color"),
    }).toEqual(expected);
  });

  it("keeps both forms when the profile's gender is not shown", () => {
    renderView(member({ gender: null, sexuality: "hetero", relationship_status: "widowed" }), "pl");
    const details = within(screen.getByRole("region", { name: pl["member.details"] }));
    expect(details.getByText(pl["member.relationship_status"]).nextElementSibling?.textContent).toBe("Wdowiec/wdowa");
  });

  it("shows the header, the details the site sends and the interests", async () => {
    renderView(member());
    expect(await screen.findByText("34 years · Haarlem, North Holland, Netherlands")).toBeVisible();
    expect(screen.getByRole("heading", { level: 1, name: "Anna" })).toBeVisible();
    const details = within(screen.getByRole("region", { name: "Details" }));
    expect(details.getByText("Hair colour").nextElementSibling?.textContent).toBe("Dark blond");
    expect(details.getByText("Tattoos").nextElementSibling?.textContent).toBe("No");
    expect(details.getByText("Sexuality").nextElementSibling?.textContent).toBe("Heterosexual");
    expect(details.getByText("As the member describes it.")).toBeVisible();
    // Hidden or unknown fields arrive as null and are left out.
    expect(details.queryByText("Eye colour")).toBeNull();
    const interests = within(screen.getByRole("region", { name: "Interests" }));
    expect(interests.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      en["interest.music"],
      en["interest.travelling"],
    ]);
    expect(screen.getByRole("region", { name: "About Anna" }).textContent).toContain("Good coffee.");
    expect(screen.queryByRole("img", { name: "Fictional profile" })).toBeNull();
  });

  it("marks a fictional profile with its icon and the warning", () => {
    renderView(member({ fictional: true }));
    expect(screen.getByRole("img", { name: "Fictional profile" })).toBeVisible();
    expect(screen.getByText("Some profiles are fictional.")).toBeVisible();
  });

  it("shows locked photos blurred under a lock, with the visitor's login prompt", () => {
    renderView(member());
    const photos = within(screen.getByRole("list", { name: "Photos" }));
    const locked = photos.getByRole("link", { name: "Log in to see more photos of Anna" });
    expect(locked.getAttribute("href")).toBe("/login");
    expect(locked.querySelector("img")?.getAttribute("src")).toBe("/cdn/3-blur.jpg");
    expect(screen.getAllByRole("link", { name: "Log in to see more photos of Anna" })).toHaveLength(2);
  });

  it("sends a free member to premium for the locked photos", () => {
    renderView(member({ photo_lock: "premium" }));
    expect(screen.getByText("Premium members see every photo")).toBeVisible();
    expect(screen.getByRole("link", { name: "Get Premium" }).getAttribute("href")).toBe("/premium");
  });

  it("says purchases are unavailable instead of the way to premium on a site that takes none (issue #25)", async () => {
    renderAsMember(<PhotoLockMessage profile={member({ photo_lock: "premium" })} />, {
      user: testUser(),
      path: "/members/5",
      purchasesAvailable: false,
    });
    expect(await screen.findByText("Premium members see every photo")).toBeVisible();
    expect(screen.getByText("Purchases are unavailable right now. Please come back later.")).toBeVisible();
    expect(screen.queryByRole("link", { name: "Get Premium" })).toBeNull();
  });

  it("says nothing about locks when every photo is visible", () => {
    renderView(member({ photos: member().photos.slice(0, 2), locked_photos: 0, photo_lock: null }));
    expect(screen.queryByText(/Login to view more photos/)).toBeNull();
    expect(screen.queryByText("Premium members see every photo")).toBeNull();
  });

  it("opens the gallery of the unlocked photos at the one clicked", async () => {
    renderView(member());
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Photo 2 of Anna" })));
    const dialog = within(await screen.findByRole("dialog", { name: "Photos of Anna" }));
    const slides = dialog.getAllByRole("img");
    expect(slides.map((img) => img.getAttribute("src"))).toEqual(["/cdn/1.jpg", "/cdn/2.jpg"]);
    expect(slides[1]?.closest(".carousel-item")?.className).toContain("active");
    expect(dialog.getByText("Next photo")).toBeVisible();
  });
});
