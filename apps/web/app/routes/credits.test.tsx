import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithDiscounts, timeBonusAnswer, welcomeAnswer } from "../features/discounts/test-render";
import { bundlesAnswer } from "../features/payments/test-data";
import { stubApi, testUser } from "../test-utils";
import CreditsRoute from "./credits";
import CreditsCheckoutRoute from "./credits-checkout";
import PremiumRoute from "./premium";

beforeEach(() => localStorage.clear());

/** Rendered without the server's bundles: the page loads them itself (as when the server could not). */
const noLoaderData = { loaderData: { bundles: null } } as unknown as Parameters<typeof CreditsRoute>[0];
afterEach(() => vi.unstubAllGlobals());

describe("/credits rendered on the server (issue #29)", () => {
  it("shows the packages it was rendered with at once, without asking for them and without a spinner", () => {
    const fetch = stubApi({ "GET /api/time-bonus.php": { time_bonus: null } });
    const rendered = { loaderData: { bundles: bundlesAnswer() } } as unknown as Parameters<typeof CreditsRoute>[0];
    renderWithDiscounts(<CreditsRoute {...rendered} />, { user: testUser({ credits: 0 }), routeId: "credits", path: "/credits" });
    // The first render already has them: nothing awaited.
    expect(screen.getByRole("radio", { name: /250 credits/ })).toBeChecked();
    expect(screen.getAllByRole("radio", { name: /credits/ })).toHaveLength(3);
    expect(screen.queryByText("Loading the credit packages…")).toBeNull();
    expect(fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.includes("/api/bundles.php"))).toEqual([]);
  });
});

describe("the discount shown where credits are sold (spec §4)", () => {
  it("/credits: the time bonus with its countdown, and the bundles' prices after it", async () => {
    stubApi({ "GET /api/bundles.php": bundlesAnswer(), "GET /api/time-bonus.php": timeBonusAnswer(14_400) });
    renderWithDiscounts(<CreditsRoute {...noLoaderData} />, {
      user: testUser({ credits: 0 }),
      routeId: "credits",
      path: "/credits",
    });
    expect(await screen.findByRole("timer")).toHaveTextContent("04:00:00");
    const best = await screen.findByRole("radio", { name: /250 credits/ });
    await vi.waitFor(() => expect(best).toHaveAccessibleName(/€14\.99, instead of €19\.99/));
    expect(screen.getByRole("radio", { name: /100 credits/ })).toHaveAccessibleName(/€7\.49, instead of €9\.99/);
    // The time bonus is not the welcome discount: no welcome modal.
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("/premium: the welcome discount with its hours left, its modal, and the cards' prices after it", async () => {
    stubApi({
      "GET /api/bundles.php": bundlesAnswer(),
      "GET /api/time-bonus.php": { time_bonus: null },
      "GET /api/discountcode.php?welcome=true": welcomeAnswer(30 * 3600),
    });
    renderWithDiscounts(<PremiumRoute />, { user: testUser(), routeId: "premium", path: "/premium" });
    expect(await screen.findByRole("dialog", { name: "Welcome! 25% off your first purchase" })).toBeInTheDocument();
    expect(document.querySelector("[data-discount-notice]")).toHaveTextContent("30 hours left");
    const card = (await screen.findByRole("link", { name: "Buy 600 credits" })).closest(".card") as HTMLElement;
    expect(within(card).getByText("€39.99", { selector: "del" })).toBeInTheDocument();
    expect(card).toHaveTextContent("€29.99");
  });

  it("shows the bundles' own prices without a discount", async () => {
    const fetch = stubApi({
      "GET /api/bundles.php": bundlesAnswer(),
      "GET /api/time-bonus.php": { time_bonus: null },
      "GET /api/discountcode.php?welcome=true": { discount: null, price: null },
    });
    renderWithDiscounts(<CreditsRoute {...noLoaderData} />, { user: testUser(), routeId: "credits", path: "/credits" });
    const best = await screen.findByRole("radio", { name: /250 credits/ });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledWith("/api/discountcode.php?welcome=true", expect.anything()));
    expect(best).toHaveAccessibleName(/€19\.99/);
    expect(best).not.toHaveAccessibleName(/instead of/);
    expect(document.querySelector("[data-discount-notice]")).toBeNull();
  });
});

describe("a site without a payment provider (decision 030)", () => {
  const unavailable = {
    "GET /api/bundles.php": bundlesAnswer({ purchases_available: false }),
    "GET /api/time-bonus.php": { time_bonus: null },
    "GET /api/discountcode.php?welcome=true": { discount: null, price: null },
    "GET /api/discountcodes.php": { discounts: [] },
  };

  it("/credits says purchases are unavailable instead of offering the packages", async () => {
    stubApi(unavailable);
    renderWithDiscounts(<CreditsRoute {...noLoaderData} />, {
      user: testUser({ credits: 5 }),
      routeId: "credits",
      path: "/credits",
    });
    expect(await screen.findByText("Purchases are unavailable right now. Please come back later.")).toHaveAttribute(
      "role",
      "status",
    );
    expect(screen.queryByRole("radio")).toBeNull();
    expect(screen.queryByRole("button", { name: "Continue" })).toBeNull();
  });

  it("/credits/{id} says so instead of a checkout that would fail", async () => {
    const fetch = stubApi(unavailable);
    const props = { loaderData: { id: 2, method: null } } as unknown as Parameters<typeof CreditsCheckoutRoute>[0];
    renderWithDiscounts(<CreditsCheckoutRoute {...props} />, {
      user: testUser(),
      routeId: "credits-id-paymentmethod",
      path: "/credits/2",
    });
    expect(await screen.findByText("Purchases are unavailable right now. Please come back later.")).toHaveAttribute(
      "role",
      "status",
    );
    expect(screen.queryByRole("button", { name: /^Pay / })).toBeNull();
    expect(fetch).not.toHaveBeenCalledWith("/api/payment.php", expect.anything());
  });
});
