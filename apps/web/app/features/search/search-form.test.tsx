import { SEARCH_FIELDS } from "@app/contract";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { createRoutesStub, useLocation } from "react-router";
import { describe, expect, it, vi } from "vitest";
import en from "../../i18n/locales/en.json";
import { QueryProvider } from "../../lib/query-client";
import { pageWindow } from "../../ui/pagination";
import { SearchForm } from "./search-form";
import { searchHref } from "./search-query";
import { searchQueryFrom } from "./search-query.server";
import { SearchResults } from "./search-results";

const regions = {
  NL: [
    { code: "NH", name: "North Holland" },
    { code: "UT", name: "Utrecht" },
  ],
  BE: [{ code: "VAN", name: "Antwerp" }],
};

const seekingWomen = { seeking: "female" as const };

function Searched() {
  const location = useLocation();
  return <output aria-label="searched">{`${location.pathname}${location.search}`}</output>;
}

/** The form on /members as the route renders it, for a member and a URL. */
function renderForm(
  url: string,
  member: { seeking: "male" | "female" | "both" } | null = seekingWomen,
  {
    regionName = null,
    loadRegions = vi.fn(async () => regions),
    visitor = false,
  }: { regionName?: string | null; loadRegions?: () => Promise<typeof regions>; visitor?: boolean } = {},
) {
  const Stub = createRoutesStub([
    {
      path: "/members",
      Component: () => {
        const location = useLocation();
        const query = searchQueryFrom(new URLSearchParams(location.search), member);
        return (
          <IntlProvider locale="en" messages={en}>
            <QueryProvider>
              <SearchForm
                query={query}
                regionName={regionName}
                countries={["NL", "BE"]}
                fields={SEARCH_FIELDS}
                loadRegions={loadRegions}
                visitor={visitor}
              />
            </QueryProvider>
            <Searched />
          </IntlProvider>
        );
      },
    },
  ]);
  render(<Stub initialEntries={[url]} />);
  return loadRegions;
}

const control = (name: string) => screen.getByRole("combobox", { name }) as HTMLSelectElement;
const choose = (name: string, value: string) => fireEvent.change(control(name), { target: { value } });

describe("search query", () => {
  it("takes the member's defaults only when the URL has no search", () => {
    const params = (search: string) => new URLSearchParams(search);
    expect(searchQueryFrom(params(""), seekingWomen)).toEqual({ gender: "female" });
    expect(searchQueryFrom(params(""), { seeking: "both" })).toEqual({});
    expect(searchQueryFrom(params(""), null)).toEqual({});
    // Another parameter (the signup's return) is not a search.
    expect(searchQueryFrom(params("api_signup_complete=1"), seekingWomen)).toEqual({ gender: "female" });
    // The form's empty fields are a search for anyone.
    expect(searchQueryFrom(params("gender=&country=&countryregion=&min_age=&max_age="), seekingWomen)).toEqual({});
    expect(searchQueryFrom(params("gender=male&country=nl&min_age=30&page=2"), seekingWomen)).toEqual({
      gender: "male",
      country: "NL",
      min_age: 30,
      page: 2,
    });
  });

  it("reads the order and the online filter from the URL", () => {
    expect(searchQueryFrom(new URLSearchParams("sort=online&online=1"), seekingWomen)).toEqual({ sort: "online", online: true });
    expect(searchHref({ gender: "female", sort: "nearby", online: true }, 2)).toBe("/members?gender=female&online=1&page=2");
    expect(searchHref({ sort: "newest" }, 1)).toBe("/members?sort=newest");
  });

  it("swaps ages given the wrong way round and falls back to the defaults on a bad URL", () => {
    expect(searchQueryFrom(new URLSearchParams("min_age=40&max_age=25"), null)).toEqual({ min_age: 25, max_age: 40 });
    expect(searchQueryFrom(new URLSearchParams("min_age=12"), seekingWomen)).toEqual({ gender: "female" });
    expect(searchQueryFrom(new URLSearchParams("gender=robot"), seekingWomen)).toEqual({ gender: "female" });
  });

  it("builds URLs without empty filters that never fall back to the defaults", () => {
    expect(searchHref({ gender: "female", country: "NL", countryregion: "NH", min_age: 25 }, 1)).toBe(
      "/members?gender=female&country=NL&countryregion=NH&min_age=25",
    );
    expect(searchHref({ gender: "male" }, 3)).toBe("/members?gender=male&page=3");
    expect(searchHref({}, 1)).toBe("/members?page=1");
    expect(searchHref({ countryregion: "NH" }, 1)).toBe("/members?page=1");
  });

  it("shows the first, the last and the pages around the current one", () => {
    expect(pageWindow(1, 1)).toEqual([]);
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(10, 20)).toEqual([1, null, 8, 9, 10, 11, 12, null, 20]);
    expect(pageWindow(4, 20)).toEqual([1, 2, 3, 4, 5, 6, null, 20]);
  });
});

describe("search form", () => {
  it("starts from the member's profile on a plain visit", () => {
    renderForm("/members");
    expect(control("Looking for").value).toBe("female");
    expect(control("Country").value).toBe("");
    expect(control("Minimum age").value).toBe("");
    expect(screen.getByRole("search", { name: "Search members" })).toBeVisible();
  });

  it("shows the URL's search instead of the defaults", () => {
    renderForm("/members?gender=&country=BE&min_age=30");
    expect(control("Looking for").value).toBe("");
    expect(control("Country").value).toBe("BE");
    expect(control("Minimum age").value).toBe("30");
  });

  it("names the URL's region from the first render, before the regions arrive (issue #29: not 'NH')", () => {
    renderForm("/members?country=NL&countryregion=NH", seekingWomen, {
      regionName: "North Holland",
      loadRegions: vi.fn(() => new Promise<typeof regions>(() => {})),
    });
    expect(control("Region").value).toBe("NH");
    expect(within(control("Region")).getByRole("option", { selected: true })).toHaveTextContent("North Holland");
  });

  it("offers a labelled sort choice and an online-now filter that apply at once and stay in the URL", async () => {
    renderForm("/members");
    await act(async () => {});
    const sort = control("Sort by");
    expect(sort.value).toBe("nearby");
    expect(
      within(sort)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["Nearby first", "Newest first", "Online first"]);
    choose("Sort by", "newest");
    await act(async () => {});
    expect(screen.getByRole("status", { name: "searched" }).textContent).toBe("/members?gender=female&sort=newest");
    expect(control("Sort by").value).toBe("newest");
    fireEvent.click(screen.getByRole("checkbox", { name: "Online now only" }));
    await act(async () => {});
    expect(screen.getByRole("status", { name: "searched" }).textContent).toBe("/members?gender=female&online=1&sort=newest");
    expect((screen.getByRole("checkbox", { name: "Online now only" }) as HTMLInputElement).checked).toBe(true);
    choose("Sort by", "nearby");
    await act(async () => {});
    // The default order leaves the URL.
    expect(screen.getByRole("status", { name: "searched" }).textContent).toBe("/members?gender=female&online=1");
  });

  it("offers a visitor the orders that mean something to them: newest (their default) and online first", async () => {
    renderForm("/members", null, { visitor: true });
    await act(async () => {});
    const sort = control("Sort by");
    // A visitor has no position: "nearby" is newest first for them, so it is shown as such.
    expect(sort.value).toBe("newest");
    expect(
      within(sort)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["Newest first", "Online first"]);
    choose("Sort by", "online");
    await act(async () => {});
    expect(screen.getByRole("status", { name: "searched" }).textContent).toBe("/members?sort=online");
    choose("Sort by", "newest");
    await act(async () => {});
    // Their default order stays out of the URL.
    expect(screen.getByRole("status", { name: "searched" }).textContent).toBe("/members?page=1");
    expect(control("Sort by").value).toBe("newest");
  });

  it("lists the site's countries by name and keeps the region disabled until a country is chosen", async () => {
    const loadRegions = renderForm("/members");
    const countries = within(control("Country"))
      .getAllByRole("option")
      .map((option) => option.textContent);
    expect(countries).toEqual(["All countries", "Belgium", "Netherlands"]);
    const region = control("Region");
    expect(region.disabled).toBe(true);
    expect(region).toHaveAccessibleDescription("Choose a country first");
    await act(async () => {});
    expect(loadRegions).toHaveBeenCalled();

    choose("Country", "NL");
    expect(control("Region").disabled).toBe(false);
    expect(
      within(control("Region"))
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["All regions", "North Holland", "Utrecht"]);

    choose("Region", "UT");
    choose("Country", "BE");
    expect(control("Region").value).toBe("");
  });

  it("submits the search it shows as a URL without empty fields", async () => {
    renderForm("/members");
    await act(async () => {});
    choose("Country", "NL");
    choose("Region", "NH");
    choose("Minimum age", "25");
    choose("Maximum age", "40");
    // Only ages from the minimum up are offered as maximum.
    expect(within(control("Maximum age")).queryByRole("option", { name: "24" })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Search" })));
    expect(screen.getByRole("status", { name: "searched" }).textContent).toBe(
      "/members?gender=female&country=NL&countryregion=NH&min_age=25&max_age=40",
    );
    // The new URL's search is on screen.
    expect(control("Region").value).toBe("NH");

    choose("Looking for", "");
    choose("Country", "");
    choose("Minimum age", "");
    choose("Maximum age", "");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Search" })));
    expect(screen.getByRole("status", { name: "searched" }).textContent).toBe("/members?page=1");
    expect(control("Looking for").value).toBe("");
  });

  it("is a GET form with named fields, so it works without script", () => {
    renderForm("/members");
    const form = screen.getByRole("search") as HTMLFormElement;
    expect(form.method).toBe("get");
    expect(new URL(form.action).pathname).toBe("/members");
    expect([...form.elements].map((element) => (element as HTMLSelectElement).name).filter(Boolean)).toEqual([
      "gender",
      "country",
      "countryregion",
      "min_age",
      "max_age",
      "sort",
      "online",
    ]);
  });
});

describe("search results", () => {
  const profile = (id: number) => ({
    id,
    name: `Member ${id}`,
    age: 30,
    country: "NL",
    city: null,
    fictional: false,
    main_image: null,
    distance: id === 1 ? { within_km: 25 } : null,
  });

  function renderResults(result: Parameters<typeof SearchResults>[0]["result"]) {
    const Stub = createRoutesStub([
      {
        path: "/members",
        Component: () => (
          <IntlProvider locale="en" messages={en}>
            <SearchResults query={{ gender: "female", country: "NL" }} result={result} />
          </IntlProvider>
        ),
      },
    ]);
    render(<Stub initialEntries={["/members?gender=female&country=NL&page=2"]} />);
  }

  it("counts the results and pages through them keeping the filters", () => {
    renderResults({
      profiles: [profile(1), profile(2)],
      numResults: 50,
      numResultsCapped: false,
      page: 2,
      pages: 3,
      similar: [],
    });
    expect(screen.getByRole("heading", { name: "50 members found" })).toBeVisible();
    expect(screen.getAllByRole("link", { name: /^Member \d/ })[0]?.getAttribute("href")).toBe("/members/1");
    const pages = within(screen.getByRole("navigation", { name: "Search result pages" }));
    expect(pages.getByRole("link", { name: "Previous page" }).getAttribute("href")).toBe("/members?gender=female&country=NL");
    expect(pages.getByRole("link", { name: "Page 3" }).getAttribute("href")).toBe("/members?gender=female&country=NL&page=3");
    expect(pages.getByText("2").closest("[aria-current]")?.getAttribute("aria-current")).toBe("page");
    expect(screen.queryByRole("heading", { name: "Similar members" })).toBeNull();
  });

  it("shows a capped count as 1000+ and explains pages past the cap", () => {
    renderResults({ profiles: [profile(1)], numResults: 1000, numResultsCapped: true, page: 2, pages: 42, similar: [] });
    expect(screen.getByRole("heading", { name: "1000+ members found" })).toBeVisible();
    cleanup();
    renderResults({ profiles: [], numResults: 1000, numResultsCapped: true, page: 50, pages: 42, similar: [] });
    expect(screen.getByText(/Only the first 1000 members of a search are shown/)).toBeVisible();
    expect(screen.getByRole("link", { name: "Go to the first page" }).getAttribute("href")).toBe(
      "/members?gender=female&country=NL",
    );
  });

  it("says when nothing matched and offers similar members", () => {
    renderResults({ profiles: [], numResults: 0, numResultsCapped: false, page: 1, pages: 0, similar: [profile(9)] });
    expect(screen.getByRole("heading", { name: "0 members found" })).toBeVisible();
    expect(screen.getByText(/No members match your search/)).toBeVisible();
    expect(screen.queryByRole("navigation", { name: "Search result pages" })).toBeNull();
    expect(screen.getByRole("heading", { name: "Similar members" })).toBeVisible();
    expect(screen.getByRole("link", { name: /Member 9/ }).getAttribute("href")).toBe("/members/9");
  });
});
