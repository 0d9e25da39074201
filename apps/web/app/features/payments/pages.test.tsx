import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderAsMember, stubApi, testUser } from "../../test-utils";
import { Premium } from "./premium";
import { Pricing } from "./pricing";
import { RepeatOrder } from "./repeat-order";
import { bundlesAnswer, paymentAnswer } from "./test-data";
import { TransactionsList } from "./transactions-list";

afterEach(() => vi.unstubAllGlobals());

describe("pricing (/pricing)", () => {
  it("shows a visitor the bundles in their currency, what things cost, the methods and the free returns, and leads to signup", async () => {
    const fetch = stubApi({ "GET /api/bundles.php": bundlesAnswer() });
    renderAsMember(<Pricing member={false} />, { user: null, path: "/pricing" });
    const bundles = within(await screen.findByRole("region", { name: "Credit packages" }));
    const cards = bundles.getAllByRole("listitem");
    expect(cards.map((card) => card.textContent)).toEqual([
      expect.stringContaining("100 credits€9.99"),
      expect.stringContaining("250 creditsBest value€19.99"),
      expect.stringContaining("600 credits€39.99"),
    ]);
    expect(bundles.getByText("14 day free returns")).toBeVisible();
    // A visitor has no bundle to buy yet: signing up comes first.
    expect(bundles.queryByRole("link")).toBeNull();

    const costs = within(screen.getByRole("region", { name: "What credits buy" }));
    expect(costs.getByText("A chat message").parentElement).toHaveTextContent("10 credits");
    expect(costs.getByText("A photo in a chat").parentElement).toHaveTextContent("15 credits");
    expect(costs.getByText("A gift").parentElement).toHaveTextContent("20 credits");

    const methods = within(screen.getByRole("region", { name: "Ways to pay" }));
    // The marks are drawn inline and hidden from assistive technology; the names carry the meaning.
    const names = methods.getAllByRole("listitem").map((item) => item.querySelector("svg + span")?.textContent);
    expect(names).toEqual(["iDEAL", "Credit card", "PayPal", "SEPA direct debit"]);
    expect(methods.getAllByRole("listitem")[0]?.querySelector("svg")).toHaveAttribute("aria-hidden", "true");
    expect(screen.getByRole("link", { name: "Sign up for free" })).toHaveAttribute("href", "/signup");
    expect(screen.queryByRole("link", { name: "Buy credits" })).toBeNull();
    expect(fetch).toHaveBeenCalledWith("/api/bundles.php", expect.objectContaining({ method: "GET" }));
  });

  it("formats prices in the member's currency", async () => {
    stubApi({
      "GET /api/bundles.php": bundlesAnswer({
        currency: "PLN",
        bundles: [{ id: 7, credits: 100, price: 44.5, currency: "PLN", best_value: true }],
        methods: ["blik"],
      }),
    });
    renderAsMember(<Pricing member />, { user: testUser(), path: "/pricing" });
    const bundles = within(await screen.findByRole("region", { name: "Credit packages" }));
    expect(bundles.getByText("PLN 44.50")).toBeVisible();
    expect(bundles.getByRole("link", { name: "Buy 100 credits" })).toHaveAttribute("href", "/credits/7");
    expect(screen.getByRole("link", { name: "Buy credits" })).toHaveAttribute("href", "/credits");
    expect(screen.queryByText(/Purchases are unavailable/)).toBeNull();
  });

  it("shows a member the prices without buy buttons, and says why, on a site that takes no purchases (issue #25)", async () => {
    stubApi({ "GET /api/bundles.php": bundlesAnswer({ purchases_available: false }) });
    renderAsMember(<Pricing member />, { user: testUser(), path: "/pricing" });
    const bundles = within(await screen.findByRole("region", { name: "Credit packages" }));
    expect(bundles.getAllByRole("listitem").map((card) => card.textContent)).toEqual([
      expect.stringContaining("100 credits€9.99"),
      expect.stringContaining("250 creditsBest value€19.99"),
      expect.stringContaining("600 credits€39.99"),
    ]);
    expect(screen.queryByRole("link", { name: /Buy/ })).toBeNull();
    expect(screen.getByText("Purchases are unavailable right now. Please come back later.")).toBeVisible();
  });
});

describe("premium (/premium)", () => {
  it("tells a free member what premium gives and offers the bundles", async () => {
    stubApi({ "GET /api/bundles.php": bundlesAnswer() });
    renderAsMember(<Premium returnParam={null} />, { user: testUser(), path: "/premium" });
    const benefits = within(screen.getByRole("region", { name: "What premium gives you" }));
    expect(benefits.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "✓See every photo of every member",
      "✓Upload up to 25 photos of yourself instead of 3",
      "✓Chat in unlimited conversations instead of 2",
      "✓Premium members have a 46% better chance of matches",
    ]);
    expect(await screen.findByRole("link", { name: "Buy 250 credits" })).toHaveAttribute("href", "/credits/2");
  });

  it("tells a premium member they are premium and offers credits instead", () => {
    stubApi({ "GET /api/bundles.php": bundlesAnswer() });
    renderAsMember(<Premium returnParam={null} />, { user: testUser({ paid_user: true }), path: "/premium" });
    expect(screen.getByText("You are a premium member.")).toBeVisible();
    expect(screen.getByRole("link", { name: "Buy credits" })).toHaveAttribute("href", "/credits");
    expect(screen.queryByRole("region", { name: "Pick your package" })).toBeNull();
  });

  it("tells a premium member purchases are unavailable instead of offering credits, on a site that takes none (issue #25)", async () => {
    stubApi({ "GET /api/bundles.php": bundlesAnswer({ purchases_available: false }) });
    renderAsMember(<Premium returnParam={null} />, {
      user: testUser({ paid_user: true }),
      path: "/premium",
      purchasesAvailable: false,
    });
    expect(await screen.findByText("You are a premium member.")).toBeVisible();
    expect(screen.getByText("Purchases are unavailable right now. Please come back later.")).toBeVisible();
    expect(screen.queryByRole("link", { name: "Buy credits" })).toBeNull();
  });
});

describe("repeat order (/credits/repeat-order)", () => {
  it("shows the last bundle and method, or says there is none", async () => {
    stubApi({
      "GET /api/bundles.php": bundlesAnswer({ repeat_order: { bundle_id: 2, credits: 250, price: 19.99, method: "creditcard" } }),
    });
    const { unmount } = renderAsMember(<RepeatOrder />, { user: testUser(), path: "/credits/repeat-order" });
    expect(await screen.findByRole("button", { name: "Buy again for €19.99" })).toBeVisible();
    expect(screen.getByText("250 credits · €19.99")).toBeVisible();
    expect(screen.getByText("Credit card")).toBeVisible();
    unmount();

    stubApi({ "GET /api/bundles.php": bundlesAnswer() });
    renderAsMember(<RepeatOrder />, { user: testUser(), path: "/credits/repeat-order" });
    expect(await screen.findByText("You have no earlier order that can be bought again in one step.")).toBeVisible();
    expect(screen.getByRole("link", { name: "Choose a credit package" })).toHaveAttribute("href", "/credits");
  });
});

describe("orders (/transactions)", () => {
  it("lists the member's payments newest first, each with its status in words and a link to its page", async () => {
    stubApi({
      "GET /api/transactions.php": {
        payments: [
          paymentAnswer({ payment_id: 3, status: "failed", created: "2026-01-05T09:00:00.000Z", method: "creditcard" }),
          paymentAnswer({ payment_id: 9, status: "paid", created: "2026-02-10T09:00:00.000Z", credits: 600, amount: 39.99 }),
        ],
      },
    });
    renderAsMember(<TransactionsList />, { user: testUser(), path: "/transactions" });
    const table = await screen.findByRole("table", { name: "Your orders, newest first" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole("cell")
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ["Feb 10, 2026", "600", "€39.99", "iDEAL", "Completed"],
      ["Jan 5, 2026", "250", "€19.99", "Credit card", "Failed"],
    ]);
    expect(within(rows[0] as HTMLElement).getByRole("link", { name: "Order #9" })).toHaveAttribute("href", "/transactions/9");
  });

  it("says when there are none yet", async () => {
    stubApi({ "GET /api/transactions.php": { payments: [] } });
    renderAsMember(<TransactionsList />, { user: testUser(), path: "/transactions" });
    expect(await screen.findByText("You have not ordered any credits yet.")).toBeVisible();
    expect(screen.getByRole("link", { name: "Buy credits" })).toHaveAttribute("href", "/credits");
  });
});
