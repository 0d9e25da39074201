import type { ApiError } from "@app/contract";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { IntlProvider } from "react-intl";
import { describe, expect, it, vi } from "vitest";
import en from "../i18n/locales/en.json";
import { FormAlert } from "../ui/form-alert";
import { TextField } from "../ui/text-field";
import { ApiCallError } from "./api";
import { useApiForm } from "./use-api-form";

function NameForm({ call }: { call: (name: string) => Promise<void> }) {
  const [name, setName] = useState("");
  const { formRef, handleSubmit, busy, errors, formError } = useApiForm({
    fields: ["name"],
    fieldOfCode: { email_taken: "name" },
  });
  const submit = handleSubmit(() => call(name), { validate: () => (name ? {} : { name: "Required" }) });
  return (
    <form ref={formRef} noValidate onSubmit={submit} aria-label="Name form">
      <FormAlert>{formError}</FormAlert>
      <TextField id="name" label="Name" value={name} onChange={setName} error={errors.name} />
      <button type="submit" disabled={busy}>
        Save
      </button>
    </form>
  );
}

const failure = (status: number, error: ApiError["error"], message: string) => new ApiCallError(status, { error, message });

async function submitWith(call: (name: string) => Promise<void>, name: string) {
  render(
    <IntlProvider locale="en" messages={en}>
      <NameForm call={call} />
    </IntlProvider>,
  );
  fireEvent.change(screen.getByLabelText("Name"), { target: { value: name } });
  await act(async () => fireEvent.submit(screen.getByRole("form", { name: "Name form" })));
}

describe("useApiForm", () => {
  it("stops at the client checks and focuses the first invalid field", async () => {
    const call = vi.fn(async () => {});
    await submitWith(call, "");
    expect(call).not.toHaveBeenCalled();
    expect(screen.getByLabelText("Name")).toHaveAccessibleDescription("Required");
    expect(screen.getByLabelText("Name")).toHaveFocus();
  });

  it("puts an error code that belongs to a field at that field", async () => {
    await submitWith(() => Promise.reject(failure(409, "email_taken", "This name is taken.")), "Sam");
    expect(screen.getByLabelText("Name")).toHaveAccessibleDescription("This name is taken.");
    expect(screen.getByLabelText("Name")).toHaveFocus();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows any other failure above the form, focused, and is ready for another try", async () => {
    await submitWith(() => Promise.reject(failure(500, "internal", "Something went wrong.")), "Sam");
    expect(screen.getByRole("alert")).toHaveTextContent("Something went wrong.");
    expect(screen.getByRole("alert")).toHaveFocus();
    expect(screen.getByRole("button", { name: "Save" })).toBeEnabled();
  });

  it("is busy while the call runs and sends it once", async () => {
    let finish = () => {};
    const call = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    await submitWith(call, "Sam");
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
    await act(async () => fireEvent.submit(screen.getByRole("form", { name: "Name form" })));
    expect(call).toHaveBeenCalledTimes(1);
    await act(async () => finish());
    expect(screen.getByRole("button", { name: "Save" })).toBeEnabled();
  });
});
