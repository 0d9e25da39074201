import type { SupportPayment } from "@app/contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { apiError, bodiesOf, renderAsMember, stubApi } from "../../../test-utils";
import { CorrectionDialog, RefundDialog } from "./dialogs";

const payment: SupportPayment = {
  payment_id: 41,
  provider: "sandbox",
  provider_id: "tr_sbx_41",
  status: "paid",
  credits: 100,
  amount: 9.99,
  currency: "EUR",
  method: "ideal",
  created: "2026-11-20T10:00:00.000Z",
  paid_at: "2026-11-20T10:01:00.000Z",
  reversed_credits: 0,
  refund_requested_at: null,
  refundable: true,
};

describe("the credit correction dialog", () => {
  it("starts in the amount, refuses 0, and sends one key for a retry of the same correction", async () => {
    let calls = 0;
    const fetch = stubApi({
      "POST /staff/api/support/members/7/credits": () =>
        ++calls === 1 ? apiError(502, "internal", "Please try again later.") : { balance: 25, replayed: false },
    });
    const done = vi.fn();
    renderAsMember(<CorrectionDialog userId={7} balance={20} show onHide={() => {}} onDone={done} />, { user: null });
    const dialog = await screen.findByRole("dialog", { name: "Correct credits" });
    const amount = within(dialog).getByLabelText("Credits to add (or take, with a minus sign)");
    await waitFor(() => expect(amount).toHaveFocus());
    fireEvent.change(amount, { target: { value: "0" } });
    expect(within(dialog).getByText("Enter a whole number other than 0.")).toBeVisible();
    fireEvent.change(amount, { target: { value: "5" } });
    expect(dialog).toHaveTextContent("Afterwards: 25 credits.");
    fireEvent.change(within(dialog).getByLabelText("Reason"), { target: { value: "Goodwill" } });
    const save = within(dialog).getByRole("button", { name: "Save the correction" });
    await act(async () => fireEvent.click(save));
    expect(await within(dialog).findByText("Please try again later.")).toBeVisible();
    await act(async () => fireEvent.click(save));
    await waitFor(() => expect(done).toHaveBeenCalledWith(25));
    const [first, second] = bodiesOf(fetch, "POST", "/staff/api/support/members/7/credits");
    expect(first).toMatchObject({ delta: 5, reason: "Goodwill" });
    expect(second?.key).toBe(first?.key);
  });
});

describe("the refund dialog", () => {
  it("says what is taken back and what stays spent, then what happened", async () => {
    const fetch = stubApi({
      "POST /staff/api/support/payments/41/refund": {
        payment: { ...payment, status: "refunded", refundable: false, reversed_credits: 30 },
        taken: 30,
        spent: 70,
        balance: 0,
        replayed: false,
      },
    });
    renderAsMember(<RefundDialog payment={payment} balance={30} onHide={() => {}} />, { user: null });
    const dialog = await screen.findByRole("dialog", { name: "Refund order #41" });
    expect(dialog).toHaveTextContent("The whole €9.99 goes back through the payment provider");
    expect(dialog).toHaveTextContent(
      "30 of its credits are taken back from the balance. 70 were already spent: they stay spent, the balance does not go below zero",
    );
    const reason = within(dialog).getByLabelText("Reason");
    await waitFor(() => expect(reason).toHaveFocus());
    fireEvent.change(reason, { target: { value: "Bought by mistake" } });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Refund" })));
    expect(await within(dialog).findByRole("status")).toHaveTextContent(
      "Refunded. 30 credits taken back, 70 already spent; the balance is 0.",
    );
    expect(bodiesOf(fetch, "POST", "/staff/api/support/payments/41/refund")).toEqual([{ reason: "Bought by mistake" }]);
  });
});
