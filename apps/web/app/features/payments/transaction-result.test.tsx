import type { Payment } from "@app/contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { liveServerEvents, renderAsMember, stubApi, testUser } from "../../test-utils";
import { storeReturnPath } from "./session";
import { bodiesOf, bundlesAnswer, paymentAnswer } from "./test-data";
import { PAYMENT_POLL_MS, TransactionResult } from "./transaction-result";
import { TransactionsList } from "./transactions-list";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname}</output>;
}

/** GET /api/payment.php?id=12 answering whatever `current()` is at the time of the call. */
function stubPayment(current: () => Payment, more: Record<string, unknown> = {}) {
  return stubApi({ "GET /api/payment.php": () => current(), "GET /api/bundles.php": bundlesAnswer(), ...more });
}

const toastRegion = () => document.querySelector('[aria-live="polite"]') as HTMLElement;

describe("the result page (/transactions/{id})", () => {
  it("says the payment is processing until the server's user.changed, then shows the toast with the order and the credits", async () => {
    let payment = paymentAnswer({ status: "pending", checkout_url: "https://pay.example/checkout/12" });
    stubPayment(() => payment);
    storeReturnPath("/chats/5");
    const live = liveServerEvents();
    renderAsMember(<TransactionResult id={12} />, { user: testUser(), events: live.events });
    expect(await screen.findByText("Processing your payment")).toBeVisible();
    expect(screen.getByRole("link", { name: "Continue paying" })).toHaveAttribute("href", "https://pay.example/checkout/12");
    expect(within(toastRegion()).queryByText(/is completed/)).toBeNull();

    payment = paymentAnswer({ status: "paid", paid_at: "2026-03-01T10:01:00.000Z" });
    act(() => live.socket().push({ type: "event", seq: 1, event: { type: "user.changed" } }));
    const toast = await within(toastRegion()).findByRole("status");
    expect(toast).toHaveTextContent("Order #12 is completed");
    expect(toast).toHaveTextContent("250 credits have been added");
    expect(screen.queryByText("Processing your payment")).toBeNull();
    expect(screen.getByText("Completed")).toBeVisible();
    // Back to the chat whose credits had run out.
    expect(screen.getByRole("link", { name: "Back to where you were" })).toHaveAttribute("href", "/chats/5");
  });

  it("polls every 2 s while the payment is open and reloads the member once it is paid without a live connection", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let payment = paymentAnswer({ status: "created" });
    const fetch = stubPayment(() => payment);
    const refresh = vi.fn(async () => {});
    renderAsMember(<TransactionResult id={12} />, { user: testUser(), refresh });
    expect(await screen.findByText("Processing your payment")).toBeVisible();
    const polls = () => fetch.mock.calls.filter(([url]) => String(url) === "/api/payment.php?id=12").length;
    expect(polls()).toBe(1);
    await act(async () => vi.advanceTimersByTime(PAYMENT_POLL_MS));
    await waitFor(() => expect(polls()).toBe(2));
    payment = paymentAnswer({ status: "paid" });
    await act(async () => vi.advanceTimersByTime(PAYMENT_POLL_MS));
    expect(await within(toastRegion()).findByText("Order #12 is completed")).toBeVisible();
    expect(refresh).toHaveBeenCalledTimes(1);
    // Paid: no more polling; nothing stored to go back to, so on to the members.
    expect(screen.getByRole("link", { name: "Search members" })).toHaveAttribute("href", "/members");
    await act(async () => vi.advanceTimersByTime(PAYMENT_POLL_MS * 3));
    expect(polls()).toBe(3);
  });

  it("shows no toast for a paid order opened from the history", async () => {
    stubApi({
      "GET /api/transactions.php": { payments: [paymentAnswer({ payment_id: 9, status: "paid" })] },
      "GET /api/payment.php": paymentAnswer({ payment_id: 9, status: "paid" }),
    });
    function Orders() {
      const { pathname } = useLocation();
      return pathname === "/transactions" ? <TransactionsList /> : <TransactionResult id={9} />;
    }
    renderAsMember(<Orders />, { user: testUser(), path: "/transactions" });
    fireEvent.click(await screen.findByRole("link", { name: "Order #9" }));
    expect(await screen.findByText("250 credits have been added")).toBeVisible();
    expect(within(toastRegion()).queryByRole("status")).toBeNull();
  });

  it("shows a failed or cancelled payment; 'Try again' retries that order (issue #29), another package is a link away", async () => {
    const fetch = stubPayment(() => paymentAnswer({ status: "cancelled" }), {
      "POST /api/payment-retry.php": { payment_id: 14, checkout_url: null },
    });
    renderAsMember(
      <>
        <TransactionResult id={12} newClientId={() => "22222222-2222-4222-8222-222222222222"} />
        <Where />
      </>,
      { user: testUser(), path: "/transactions/12" },
    );
    expect(await screen.findByRole("alert")).toHaveTextContent("Payment failed or has been cancelled.");
    expect(screen.getByRole("link", { name: "Choose another package" })).toHaveAttribute("href", "/credits");
    expect(screen.getByText("Cancelled")).toBeVisible();
    expect(within(toastRegion()).queryByRole("status")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("/transactions/14")).toBeInTheDocument();
    expect(bodiesOf(fetch, "POST", "/api/payment-retry.php")).toEqual([
      { payment_id: 12, client_id: "22222222-2222-4222-8222-222222222222" },
    ]);
  });

  it("after a failed repeat order by card offers the card again and PayPal for the same bundle", async () => {
    const fetch = stubPayment(
      () => paymentAnswer({ status: "failed", method: "creditcard", recurring: true, bundle_id: 3, amount: 39.99 }),
      {
        "POST /api/repeat-order.php": { payment_id: 13, checkout_url: null },
      },
    );
    renderAsMember(
      <>
        <TransactionResult id={12} newClientId={() => "11111111-1111-4111-8111-111111111111"} />
        <Where />
      </>,
      { user: testUser(), path: "/transactions/12" },
    );
    expect(await screen.findByText("Credit card payment failed")).toBeVisible();
    expect(screen.queryByText("Payment failed or has been cancelled.")).toBeNull();
    expect(await screen.findByRole("link", { name: "Pay with PayPal" })).toHaveAttribute("href", "/credits/3/paypal");
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("/transactions/13")).toBeInTheDocument();
    expect(bodiesOf(fetch, "POST", "/api/repeat-order.php")).toEqual([{ client_id: "11111111-1111-4111-8111-111111111111" }]);
  });

  it("returns a refundable order after asking, then shows it as returned with the focus on the new status", async () => {
    const fetch = stubPayment(() => paymentAnswer({ status: "paid", refundable: true }), {
      "POST /api/refund.php": paymentAnswer({ status: "refunded", refundable: false }),
    });
    renderAsMember(<TransactionResult id={12} />, { user: testUser() });
    const open = await screen.findByRole("button", { name: "Return this order" });

    fireEvent.click(open);
    let dialog = await screen.findByRole("dialog", { name: "Return this order?" });
    expect(dialog).toHaveTextContent("You get €19.99 back, and the 250 credits of this order are taken off your balance.");
    await waitFor(() => expect(within(dialog).getByRole("button", { name: "Keep the order" })).toHaveFocus());
    fireEvent.click(within(dialog).getByRole("button", { name: "Keep the order" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(open).toHaveFocus();
    expect(bodiesOf(fetch, "POST", "/api/refund.php")).toEqual([]);

    fireEvent.click(open);
    dialog = await screen.findByRole("dialog", { name: "Return this order?" });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Return the order" })));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(bodiesOf(fetch, "POST", "/api/refund.php")).toEqual([{ payment_id: 12 }]);
    const status = screen.getByText("This order has been returned. Its credits were taken off your balance.");
    expect(screen.getByText("Returned")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Return this order" })).toBeNull();
    await waitFor(() => expect(status.closest("[tabindex='-1']")).toHaveFocus());
  });

  it("shows a discount the order was paid with: the code, and the amount before it struck through (result page and history)", async () => {
    const discounted = paymentAnswer({
      status: "paid",
      amount: 14.99,
      discount: { code: "TIMEBONUS25", value_percentage: 25, original_amount: 19.99 },
    });
    stubApi({ "GET /api/payment.php": discounted, "GET /api/transactions.php": { payments: [discounted] } });
    const result = renderAsMember(<TransactionResult id={12} />, { user: testUser() });
    const amount = (await screen.findByText("Amount")).nextElementSibling as HTMLElement;
    expect(amount).toHaveTextContent("€14.99, instead of €19.99 €19.99 TIMEBONUS25: 25% off");
    expect(within(amount).getByText("€19.99", { selector: "del" })).toBeInTheDocument();
    result.unmount();
    renderAsMember(<TransactionsList />, { user: testUser() });
    const row = (await screen.findByRole("link", { name: "Order #12" })).closest("tr") as HTMLElement;
    expect(row).toHaveTextContent("€14.99, instead of €19.99 €19.99 TIMEBONUS25: 25% off");
  });

  it("shows the server's message when the order cannot be found", async () => {
    stubApi({
      "GET /api/payment.php": new Response(JSON.stringify({ error: "not_found", message: "Not found." }), { status: 404 }),
    });
    renderAsMember(<TransactionResult id={12} />, { user: testUser() });
    expect(await screen.findByRole("alert")).toHaveTextContent("Not found.");
  });
});
