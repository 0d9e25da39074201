import { act, fireEvent, screen, within } from "@testing-library/react";
import { useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderAsMember, stubApi, testUser } from "../../test-utils";
import { Checkout } from "./checkout";
import { CreditsChoice } from "./credits-choice";
import { readReturnPath } from "./session";
import { apiError, bodiesOf, bundlesAnswer } from "./test-data";

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

function Where() {
  const location = useLocation();
  return <output aria-label="location">{`${location.pathname}${location.search}`}</output>;
}

describe("credit package choice (/credits)", () => {
  it("pre-selects the best value, lets the member choose another and continues to that bundle", async () => {
    stubApi({ "GET /api/bundles.php": bundlesAnswer() });
    renderAsMember(
      <>
        <CreditsChoice returnParam={null} />
        <Where />
      </>,
      { user: testUser({ credits: 3 }), path: "/credits" },
    );
    const best = await screen.findByRole("radio", { name: /250 credits.*Best value/ });
    expect(best).toBeChecked();
    expect(screen.getByText("You have 3 credits.")).toBeVisible();
    expect(screen.getByRole("radio", { name: /100 credits/ })).toHaveAccessibleName(/€9\.99/);
    fireEvent.click(screen.getByRole("radio", { name: /600 credits/ }));
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("/credits/3")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Buy your last package again in one step" })).toBeNull();
  });

  it("keeps ?return= for after the payment (local paths only) and offers the repeat order when there is one", async () => {
    stubApi({
      "GET /api/bundles.php": bundlesAnswer({ repeat_order: { bundle_id: 2, credits: 250, price: 19.99, method: "creditcard" } }),
    });
    const { unmount } = renderAsMember(<CreditsChoice returnParam="/chats/5" />, {
      user: testUser(),
      path: "/credits?return=%2Fchats%2F5",
    });
    expect(await screen.findByRole("link", { name: "Buy your last package again in one step" })).toHaveAttribute(
      "href",
      "/credits/repeat-order",
    );
    expect(readReturnPath()).toBe("/chats/5");
    unmount();
    renderAsMember(<CreditsChoice returnParam="https://evil.example/" />, { user: testUser(), path: "/credits" });
    await screen.findByRole("radio", { name: /250 credits/ });
    expect(readReturnPath()).toBeNull();
  });
});

function renderCheckout(props: { bundleId?: number; methodParam?: string } = {}) {
  const goTo = vi.fn();
  let n = 0;
  const newClientId = vi.fn(() => `00000000-0000-4000-8000-00000000000${++n}`);
  renderAsMember(
    <>
      <Checkout bundleId={props.bundleId ?? 2} methodParam={props.methodParam} goTo={goTo} newClientId={newClientId} />
      <Where />
    </>,
    { user: testUser(), path: `/credits/${props.bundleId ?? 2}` },
  );
  return { goTo, newClientId };
}

describe("paying for a bundle (/credits/{id}/{paymentmethod?})", () => {
  it("shows the bundle, pre-selects the URL's method, and a double click creates one payment and goes to the checkout", async () => {
    let answer: (value: unknown) => void = () => {};
    const fetch = stubApi({
      "GET /api/bundles.php": bundlesAnswer(),
      "POST /api/payment.php": () => new Promise((resolve) => (answer = resolve)),
    });
    const { goTo } = renderCheckout({ methodParam: "paypal" });
    expect(await screen.findByRole("radio", { name: "PayPal" })).toBeChecked();
    expect(screen.getByRole("region", { name: "Your package" })).toHaveTextContent("250 credits · €19.99");
    const pay = screen.getByRole("button", { name: "Pay €19.99" });
    fireEvent.click(pay);
    fireEvent.click(pay);
    await act(async () => answer({ payment_id: 12, checkout_url: "https://pay.example/checkout/12" }));
    expect(bodiesOf(fetch, "POST", "/api/payment.php")).toEqual([
      { bundle_id: 2, method: "paypal", client_id: "00000000-0000-4000-8000-000000000001" },
    ]);
    expect(goTo).toHaveBeenCalledTimes(1);
    expect(goTo).toHaveBeenCalledWith("https://pay.example/checkout/12");
    expect(pay).toBeDisabled();
  });

  it("tries a lost attempt again with the same client_id, and a new method as a new attempt", async () => {
    let calls = 0;
    const fetch = stubApi({
      "GET /api/bundles.php": bundlesAnswer(),
      "POST /api/payment.php": () => {
        calls++;
        if (calls === 1) throw new TypeError("offline");
        if (calls === 2) return apiError(422, "payment_method_unavailable", "This payment method is not available for you.");
        return { payment_id: 14, checkout_url: null };
      },
    });
    renderCheckout();
    const pay = await screen.findByRole("button", { name: "Pay €19.99" });
    expect(screen.getByRole("radio", { name: "iDEAL" })).toBeChecked();
    await act(async () => fireEvent.click(pay));
    expect(await screen.findByRole("alert")).toHaveTextContent("No connection to the server.");
    expect(screen.getByRole("alert")).toHaveFocus();
    await act(async () => fireEvent.click(pay));
    expect(await screen.findByRole("alert")).toHaveTextContent("This payment method is not available for you.");
    fireEvent.click(screen.getByRole("radio", { name: "Credit card" }));
    await act(async () => fireEvent.click(pay));
    const ids = bodiesOf(fetch, "POST", "/api/payment.php").map((body) => [body.method, body.client_id]);
    expect(ids).toEqual([
      ["ideal", "00000000-0000-4000-8000-000000000001"],
      ["ideal", "00000000-0000-4000-8000-000000000001"],
      ["creditcard", "00000000-0000-4000-8000-000000000002"],
    ]);
    // No checkout page needed: straight to the result page.
    expect(await screen.findByText("/transactions/14")).toBeInTheDocument();
  });

  it("sends direct debit to the site's own form without creating a payment", async () => {
    const fetch = stubApi({ "GET /api/bundles.php": bundlesAnswer() });
    renderCheckout({ bundleId: 3, methodParam: "directdebit" });
    expect(await screen.findByRole("radio", { name: "SEPA direct debit" })).toBeChecked();
    fireEvent.click(screen.getByRole("button", { name: "Pay €39.99" }));
    expect(await screen.findByText("/directdebit?bundle=3")).toBeInTheDocument();
    expect(bodiesOf(fetch, "POST", "/api/payment.php")).toEqual([]);
  });

  it("offers Apple Pay only where the browser can pay with it", async () => {
    stubApi({ "GET /api/bundles.php": bundlesAnswer() });
    const { unmount } = renderAsMember(<Checkout bundleId={2} methodParam="applepay" />, {
      user: testUser(),
      path: "/credits/2/applepay",
    });
    const methods = within(await screen.findByRole("group", { name: "Payment method" }));
    expect(methods.getAllByRole("radio").map((radio) => radio.getAttribute("value"))).toEqual([
      "ideal",
      "creditcard",
      "paypal",
      "directdebit",
    ]);
    // The URL's method is not offered here: the first one is chosen instead.
    expect(methods.getByRole("radio", { name: "iDEAL" })).toBeChecked();
    unmount();

    vi.stubGlobal("ApplePaySession", { canMakePayments: () => true });
    renderAsMember(<Checkout bundleId={2} methodParam="applepay" />, { user: testUser(), path: "/credits/2/applepay" });
    expect(await screen.findByRole("radio", { name: "Apple Pay" })).toBeChecked();
  });

  it("says so when the bundle is not offered, with the way back to the choice", async () => {
    stubApi({ "GET /api/bundles.php": bundlesAnswer() });
    renderCheckout({ bundleId: 99 });
    expect(await screen.findByRole("alert")).toHaveTextContent("This credit package is not available.");
    expect(screen.getByRole("link", { name: "Choose a credit package" })).toHaveAttribute("href", "/credits");
  });
});
