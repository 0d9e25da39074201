import { act, fireEvent, screen } from "@testing-library/react";
import { useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderAsMember, stubApi, testUser } from "../../test-utils";
import { DirectDebit } from "./direct-debit";
import { apiError, bodiesOf, bundlesAnswer } from "./test-data";

afterEach(() => vi.unstubAllGlobals());

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname}</output>;
}

function renderForm(bundleId: number | null = 2) {
  return renderAsMember(
    <>
      <DirectDebit bundleId={bundleId} newClientId={() => "22222222-2222-4222-8222-222222222222"} />
      <Where />
    </>,
    { user: testUser(), path: `/directdebit?bundle=${bundleId}` },
  );
}

async function fillAccount() {
  fireEvent.change(await screen.findByLabelText("Account holder"), { target: { value: "Sam de Vries" } });
  fireEvent.change(screen.getByLabelText("IBAN"), { target: { value: "nl91 abna 0417 1643 00" } });
  fireEvent.change(screen.getByLabelText("Mobile phone number"), { target: { value: "+31 6 1234 5678" } });
}

describe("direct debit (/directdebit)", () => {
  it("takes the account and phone, then the texted code: a wrong code is 'Code invalid', the right one opens the result", async () => {
    let codes = 0;
    const fetch = stubApi({
      "GET /api/bundles.php": bundlesAnswer(),
      "POST /api/directdebit.php": { verification_id: "v-1", phone: "+31 6•••••678", expires_in_seconds: 600 },
      "POST /api/directdebit-confirm.php": () =>
        ++codes === 1 ? apiError(422, "code_invalid", "Code invalid") : { payment_id: 21, checkout_url: null },
    });
    renderForm();
    expect(await screen.findByText("Pay €19.99 for 250 credits from your bank account.")).toBeVisible();
    expect(screen.getByLabelText("Account holder")).toHaveAttribute("autocomplete", "name");
    expect(screen.getByLabelText("Mobile phone number")).toHaveAttribute("autocomplete", "tel");
    expect(screen.getByLabelText("Mobile phone number")).toHaveAttribute("type", "tel");
    await fillAccount();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send code" })));
    expect(bodiesOf(fetch, "POST", "/api/directdebit.php")).toEqual([
      { bundle_id: 2, name: "Sam de Vries", iban: "NL91ABNA0417164300", phone: "+31612345678" },
    ]);

    expect(await screen.findByText("We sent a code to +31 6•••••678.")).toBeVisible();
    const code = screen.getByLabelText("Code from the text message");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveFocus();
    fireEvent.change(code, { target: { value: "111111" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Confirm and pay €19.99" })));
    expect(await screen.findByText("Code invalid")).toBeVisible();
    expect(code).toHaveAttribute("aria-invalid", "true");
    expect(code).toHaveFocus();

    fireEvent.change(code, { target: { value: "123456" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Confirm and pay €19.99" })));
    expect(await screen.findByText("/transactions/21")).toBeInTheDocument();
    expect(bodiesOf(fetch, "POST", "/api/directdebit-confirm.php")).toEqual([
      { verification_id: "v-1", code: "111111", client_id: "22222222-2222-4222-8222-222222222222" },
      { verification_id: "v-1", code: "123456", client_id: "22222222-2222-4222-8222-222222222222" },
    ]);
  });

  it("puts an IBAN the server refuses at its field, and a block above the form", async () => {
    let starts = 0;
    stubApi({
      "GET /api/bundles.php": bundlesAnswer(),
      "POST /api/directdebit.php": () =>
        ++starts === 1
          ? apiError(422, "iban_invalid", "This IBAN is not valid.")
          : apiError(403, "direct_debit_blocked", "Your account is blocked for direct debit payments."),
    });
    renderForm();
    await fillAccount();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send code" })));
    expect(await screen.findByText("This IBAN is not valid.")).toBeVisible();
    expect(screen.getByLabelText("IBAN")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("IBAN")).toHaveFocus();

    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send code" })));
    expect(await screen.findByRole("alert")).toHaveTextContent("Your account is blocked for direct debit payments.");
    expect(screen.getByRole("link", { name: "Choose another payment method" })).toHaveAttribute("href", "/credits/2");
  });

  it("checks the fields before sending anything", async () => {
    const fetch = stubApi({ "GET /api/bundles.php": bundlesAnswer() });
    renderForm();
    const send = await screen.findByRole("button", { name: "Send code" });
    await act(async () => fireEvent.click(send));
    expect(screen.getByLabelText("Account holder")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Account holder")).toHaveFocus();
    expect(screen.getByText("Enter the name of the account holder.")).toBeVisible();
    expect(bodiesOf(fetch, "POST", "/api/directdebit.php")).toEqual([]);
  });

  it("without a bundle offered says so and leads back to the choice", async () => {
    stubApi({ "GET /api/bundles.php": bundlesAnswer() });
    renderForm(null);
    expect(await screen.findByRole("alert")).toHaveTextContent("This credit package is not available.");
    expect(screen.getByRole("link", { name: "Choose a credit package" })).toHaveAttribute("href", "/credits");
  });
});
