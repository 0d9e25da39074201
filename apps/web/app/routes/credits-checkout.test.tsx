import { type Discount, ERROR_STATUS, type ErrorCode } from "@app/contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithDiscounts, timeBonusAnswer } from "../features/discounts/test-render";
import { bodiesOf, bundlesAnswer, checkoutLoaderData } from "../features/payments/test-data";
import { stubApi, testUser } from "../test-utils";
import CreditsCheckoutRoute from "./credits-checkout";

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

function discount(code: string, value_percentage: number, overrides: Partial<Discount> = {}): Discount {
  return {
    code,
    kind: "code",
    user_id: null,
    status: "active",
    expired: false,
    value_percentage,
    expires: null,
    seconds_left: null,
    country: null,
    currency: null,
    minimum_order_value: null,
    paymentmethods: null,
    validity: "once_per_member",
    ...overrides,
  };
}

/** GET /api/discountcode.php?code=&bundle_id=&method= for bundle 2 (€19.99). */
const checked = (code: string, percentage: number, discounted: number, overrides: Partial<Discount> = {}) => ({
  discount: discount(code, percentage, overrides),
  price: { original: 19.99, discounted, currency: "EUR" },
});
const refusal = (error: ErrorCode, message: string) =>
  new Response(JSON.stringify({ error, message }), { status: ERROR_STATUS[error] });
const checkUrl = (code: string, method = "ideal") => `GET /api/discountcode.php?code=${code}&bundle_id=2&method=${method}`;

/** Nothing shown to the member: no time bonus, no welcome discount, no codes of their own. */
const nothingShown = {
  "GET /api/time-bonus.php": { time_bonus: null },
  "GET /api/discountcode.php?welcome=true": { discount: null, price: null },
  "GET /api/discountcodes.php": { discounts: [] },
};

function renderCheckout(method: string | null = null) {
  const props = { loaderData: { id: 2, method } } as unknown as Parameters<typeof CreditsCheckoutRoute>[0];
  return renderWithDiscounts(<CreditsCheckoutRoute {...props} />, {
    user: testUser(),
    routeId: "credits-id-paymentmethod",
    path: "/credits/2",
  });
}

const pay = () => screen.getByRole("button", { name: /^Pay / });
/** The selector is a modal (spec §2): "Choose a discount code" opens it, "Done" closes it. */
const openSelector = () => fireEvent.click(screen.getByRole("button", { name: "Choose a discount code" }));
const closeSelector = async () => {
  fireEvent.click(screen.getByRole("button", { name: "Done" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
};
/** The pay button once it is usable: it waits disabled while the page checks the discount it starts with. */
const payEnabled = async (name: string) => {
  await screen.findByRole("button", { name });
  await waitFor(() => expect(screen.getByRole("button", { name })).toBeEnabled());
  return screen.getByRole("button", { name });
};
const codeField = () => screen.getByRole("textbox", { name: "Do you have a discount code?" });
const apply = async (code: string) => {
  fireEvent.change(codeField(), { target: { value: code } });
  await act(async () => fireEvent.click(screen.getByRole("button", { name: "Apply" })));
};

describe("the discount code selector on the checkout (spec §2, §5)", () => {
  it("lists the member's usable codes with the shown discount pre-selected, and pays the discounted price with it", async () => {
    const fetch = stubApi({
      "GET /api/bundles.php": bundlesAnswer(),
      "GET /api/time-bonus.php": timeBonusAnswer(14_400),
      "GET /api/discountcodes.php": {
        discounts: [discount("SUMMER10", 10), discount("TIMEBONUS25", 25, { kind: "time_bonus" })],
      },
      [checkUrl("TIMEBONUS25")]: checked("TIMEBONUS25", 25, 14.99, { kind: "time_bonus" }),
      [checkUrl("SUMMER10")]: checked("SUMMER10", 10, 17.99),
      "POST /api/payment.php": { payment_id: 31, checkout_url: null },
    });
    renderCheckout();
    await payEnabled("Pay €14.99");
    openSelector();
    const codes = within(await screen.findByRole("group", { name: "Choose a discount" }));
    expect(codes.getAllByRole("radio").map((radio) => radio.closest("label")?.textContent)).toEqual([
      "TIMEBONUS25: 25% offTime bonus",
      "SUMMER10: 10% off",
      "No discount",
    ]);
    expect(codes.getByRole("radio", { name: /TIMEBONUS25/ })).toBeChecked();
    // The package shows the price after the discount, the one before struck through.
    const bundle = screen.getByRole("region", { name: "Your package" });
    expect(bundle).toHaveTextContent("250 credits · €14.99, instead of €19.99 €19.99");
    expect(within(bundle).getByText("€19.99", { selector: "del" })).toBeInTheDocument();

    fireEvent.click(codes.getByRole("radio", { name: /SUMMER10/ }));
    await payEnabled("Pay €17.99");
    fireEvent.click(codes.getByRole("radio", { name: "No discount" }));
    await payEnabled("Pay €19.99");
    fireEvent.click(codes.getByRole("radio", { name: /TIMEBONUS25/ }));
    await closeSelector();
    const payButton = await payEnabled("Pay €14.99");
    await act(async () => fireEvent.click(payButton));
    expect(bodiesOf(fetch, "POST", "/api/payment.php")).toEqual([
      { bundle_id: 2, method: "ideal", discount_code: "TIMEBONUS25", client_id: expect.any(String) },
    ]);
    expect(await screen.findByRole("status", { name: "location" })).toHaveTextContent("/transactions/31");
  });

  it("applies a typed code (Enter applies, it does not pay), checked for this bundle and method", async () => {
    const fetch = stubApi({
      ...nothingShown,
      "GET /api/bundles.php": bundlesAnswer(),
      [checkUrl("FRIENDS20")]: checked("FRIENDS20", 20, 15.99),
      "POST /api/payment.php": { payment_id: 32, checkout_url: null },
    });
    renderCheckout();
    await payEnabled("Pay €19.99");
    openSelector();
    fireEvent.change(await screen.findByRole("textbox", { name: "Do you have a discount code?" }), {
      target: { value: " FRIENDS20 " },
    });
    await act(async () => fireEvent.keyDown(codeField(), { key: "Enter" }));
    await payEnabled("Pay €15.99");
    expect(screen.getByText("FRIENDS20 applied: you pay €15.99 instead of €19.99.")).toBeInTheDocument();
    expect(bodiesOf(fetch, "POST", "/api/payment.php")).toEqual([]);
    await closeSelector();
    await act(async () => fireEvent.click(pay()));
    expect(bodiesOf(fetch, "POST", "/api/payment.php")).toEqual([
      { bundle_id: 2, method: "ideal", discount_code: "FRIENDS20", client_id: expect.any(String) },
    ]);
  });

  it("says 'Code not found' and 'Code already used' as the server does, and then charges the full price", async () => {
    const fetch = stubApi({
      ...nothingShown,
      "GET /api/bundles.php": bundlesAnswer(),
      [checkUrl("NOPE")]: () => refusal("code_not_found", "Code not found"),
      [checkUrl("USED10")]: () => refusal("code_already_used", "Code already used"),
      "POST /api/payment.php": { payment_id: 33, checkout_url: null },
    });
    renderCheckout();
    await screen.findByRole("button", { name: "Pay €19.99" });
    openSelector();
    await apply("NOPE");
    expect(await screen.findByRole("alert")).toHaveTextContent("Code not found");
    expect(codeField()).toHaveAttribute("aria-invalid", "true");
    expect(codeField()).toHaveAccessibleDescription("Code not found");
    await apply("USED10");
    expect(await screen.findByRole("alert")).toHaveTextContent("Code already used");
    await closeSelector();
    const payButton = await payEnabled("Pay €19.99");
    await act(async () => fireEvent.click(payButton));
    expect(bodiesOf(fetch, "POST", "/api/payment.php")).toEqual([
      { bundle_id: 2, method: "ideal", client_id: expect.any(String) },
    ]);
  });

  it("checks the code again when the method changes: a code for PayPal only applies once PayPal is chosen", async () => {
    const fetch = stubApi({
      ...nothingShown,
      "GET /api/bundles.php": bundlesAnswer(),
      [checkUrl("PAYPAL10")]: () => refusal("code_not_applicable", "This code cannot be used for this order."),
      [checkUrl("PAYPAL10", "paypal")]: checked("PAYPAL10", 10, 17.99, { paymentmethods: ["paypal"] }),
      "POST /api/payment.php": { payment_id: 34, checkout_url: null },
    });
    renderCheckout();
    await screen.findByRole("button", { name: "Pay €19.99" });
    openSelector();
    await apply("PAYPAL10");
    expect(await screen.findByRole("alert")).toHaveTextContent("This code cannot be used for this order.");
    await closeSelector();
    fireEvent.click(screen.getByRole("radio", { name: "PayPal" }));
    const payButton = await payEnabled("Pay €17.99");
    await act(async () => fireEvent.click(payButton));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(bodiesOf(fetch, "POST", "/api/payment.php")).toEqual([
      { bundle_id: 2, method: "paypal", discount_code: "PAYPAL10", client_id: expect.any(String) },
    ]);
  });

  it("keeps the best valid discount: a refused code keeps the time bonus, a worse one does not replace it (issue #29)", async () => {
    const fetch = stubApi({
      "GET /api/bundles.php": bundlesAnswer(),
      "GET /api/time-bonus.php": timeBonusAnswer(14_400),
      "GET /api/discountcodes.php": { discounts: [discount("TIMEBONUS25", 25, { kind: "time_bonus" })] },
      [checkUrl("TIMEBONUS25")]: checked("TIMEBONUS25", 25, 14.99, { kind: "time_bonus" }),
      [checkUrl("NOPE")]: () => refusal("code_not_found", "Code not found"),
      [checkUrl("SPRING10")]: checked("SPRING10", 10, 17.99),
      [checkUrl("MEGA30")]: checked("MEGA30", 30, 13.99),
      "POST /api/payment.php": { payment_id: 35, checkout_url: null },
    });
    renderCheckout();
    await payEnabled("Pay €14.99");
    openSelector();
    await apply("NOPE");
    expect(await screen.findByRole("alert")).toHaveTextContent("Code not found");
    expect(screen.getByText("TIMEBONUS25 still applies.")).toBeInTheDocument();
    await payEnabled("Pay €14.99");

    await apply("SPRING10");
    expect(
      await screen.findByText("SPRING10 gives 10% off. TIMEBONUS25 gives more (25%), so TIMEBONUS25 still applies."),
    ).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: /TIMEBONUS25/ })).toBeChecked();
    await payEnabled("Pay €14.99");
    expect(screen.getByText("TIMEBONUS25 applied: you pay €14.99 instead of €19.99.")).toBeInTheDocument();

    // A better code does replace it.
    await apply("MEGA30");
    await payEnabled("Pay €13.99");
    expect(screen.getByRole("radio", { name: /TIMEBONUS25/ })).not.toBeChecked();
    await closeSelector();
    await act(async () => fireEvent.click(pay()));
    expect(bodiesOf(fetch, "POST", "/api/payment.php")).toEqual([
      { bundle_id: 2, method: "ideal", discount_code: "MEGA30", client_id: expect.any(String) },
    ]);
  });

  it("says that direct debit takes no code, and shows the bundle's own price for it", async () => {
    stubApi({
      "GET /api/bundles.php": bundlesAnswer(),
      "GET /api/time-bonus.php": timeBonusAnswer(14_400),
      "GET /api/discountcodes.php": { discounts: [] },
      [checkUrl("TIMEBONUS25")]: checked("TIMEBONUS25", 25, 14.99, { kind: "time_bonus" }),
    });
    renderCheckout("directdebit");
    expect(await screen.findByText(/Discount codes cannot be used with direct debit/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Pay €19.99" })).toBeEnabled();
    expect(screen.queryByRole("textbox", { name: "Do you have a discount code?" })).toBeNull();
  });
});

describe("the checkout rendered on the server, once in the browser (issue #29)", () => {
  it("keeps the price it was rendered with, without asking for the bundles or the code again", async () => {
    const fetch = stubApi({
      "GET /api/time-bonus.php": timeBonusAnswer(14_400),
      "GET /api/discountcodes.php": { discounts: [] },
    });
    renderWithDiscounts(<CreditsCheckoutRoute {...checkoutLoaderData<Parameters<typeof CreditsCheckoutRoute>[0]>()} />, {
      user: testUser(),
      routeId: "credits-id-paymentmethod",
      path: "/credits/2",
    });
    // The first render already has it: nothing awaited.
    expect(pay()).toHaveAccessibleName("Pay €14.99");
    expect(pay()).toBeEnabled();
    await waitFor(() => expect(fetch).toHaveBeenCalledWith("/api/time-bonus.php", expect.anything()));
    await waitFor(() => expect(fetch).toHaveBeenCalledWith("/api/discountcodes.php", expect.anything()));
    expect(pay()).toHaveAccessibleName("Pay €14.99");
    const asked = fetch.mock.calls.map(([url]) => String(url));
    expect(asked.filter((url) => url.includes("code=") || url.includes("bundles"))).toEqual([]);
  });
});
