import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../../i18n/locales/en.json";
import { confirmProblem, emailSuggestion, passwordProblem } from "./client-checks";
import { SignupForm, signupProblems } from "./signup-form";

const today = new Date(Date.UTC(2026, 5, 15));

function renderForm(onCreated = vi.fn()) {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <IntlProvider locale="en" messages={en}>
          <SignupForm onCreated={onCreated} today={today} />
        </IntlProvider>
      ),
    },
  ]);
  render(<Stub />);
  return onCreated;
}

const field = (name: string | RegExp) => screen.getByLabelText(name) as HTMLInputElement;
const type = (name: string | RegExp, value: string) => fireEvent.change(field(name), { target: { value } });

/** Opens the date-of-birth modal (spec §2), chooses the date and presses Done; answers the dialog. */
function chooseDateOfBirth(day: string, month: string, year: string) {
  const opener = screen.getByRole("button", { name: /^Date of birth/ });
  opener.focus(); // as a browser does on click: focus returns there when the modal closes
  fireEvent.click(opener);
  const dialog = screen.getByRole("dialog", { name: "Date of birth" });
  fireEvent.change(within(dialog).getByRole("combobox", { name: "Day" }), { target: { value: day } });
  fireEvent.change(within(dialog).getByRole("combobox", { name: "Month" }), { target: { value: month } });
  fireEvent.change(within(dialog).getByRole("combobox", { name: "Year" }), { target: { value: year } });
  fireEvent.click(within(dialog).getByRole("button", { name: "Done" }));
  return dialog;
}

async function fillValid() {
  type("E-mail address", "sam@example.com");
  type("Username", "Sam");
  type("Password", "correct horse battery");
  chooseDateOfBirth("3", "4", "1990");
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  fireEvent.click(screen.getByRole("radio", { name: "A man" }));
  fireEvent.click(screen.getByRole("radio", { name: "Women" }));
}

const submit = () => act(async () => fireEvent.click(screen.getByRole("button", { name: "Create my free account" })));

afterEach(() => vi.unstubAllGlobals());

describe("client-side checks", () => {
  it("check passwords: length, not the e-mail address, the two entries equal", () => {
    expect(passwordProblem("short")).toBe("auth.password_too_short");
    expect(passwordProblem("x".repeat(129))).toBe("auth.password_too_long");
    expect(passwordProblem("Sam@Example.com", "sam@example.com")).toBe("auth.password_is_email");
    expect(passwordProblem("long enough")).toBeNull();
    expect(confirmProblem("long enough", "long enougH")).toBe("auth.passwords_differ");
    expect(en["auth.passwords_differ"]).toBe("The entered passwords are not the same.");
    expect(confirmProblem("long enough", "long enough")).toBeNull();
  });

  it("suggest a correction for a mistyped common domain only", () => {
    expect(emailSuggestion("sam@gmial.com")).toBe("sam@gmail.com");
    expect(emailSuggestion("sam@hotmial.com")).toBe("sam@hotmail.com");
    expect(emailSuggestion("sam@gmail.com")).toBeNull();
    expect(emailSuggestion("sam")).toBeNull();
  });

  it("find every problem of an empty step 0", () => {
    const problems = signupProblems(
      {
        email: "",
        name: "",
        password: "",
        dateOfBirth: { day: "", month: "", year: "" },
        gender: "",
        seeking: "",
        signupMessage: "",
      },
      today,
    );
    expect(Object.keys(problems).sort()).toEqual(["date_of_birth", "email", "gender", "name", "password", "seeking"]);
  });
});

describe("signup form", () => {
  it("shows every problem without calling the server and moves focus to the first", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    renderForm();
    await submit();
    expect(fetch).not.toHaveBeenCalled();
    const email = field("E-mail address");
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(email);
    expect(screen.getByText("Invalid date of birth.")).toBeVisible();
    expect(screen.getByText("Please choose whether you are a man or a woman.")).toBeVisible();
    expect(screen.getByText("Please choose whom you are looking for.")).toBeVisible();
  });

  it("states the password rule and checks it, and the username rules", async () => {
    vi.stubGlobal("fetch", vi.fn());
    renderForm();
    expect(screen.getByText("At least 8 characters, and not a common password.")).toBeVisible();
    await fillValid();
    type("Password", "short");
    type("Username", "@sam");
    await submit();
    expect(screen.getByText("Your password must have at least 8 characters.")).toBeVisible();
    expect(screen.getByText("Your username may not start with @.")).toBeVisible();
    expect(document.activeElement).toBe(field("Username"));
  });

  it("refuses someone under 18 in the date-of-birth modal, which stays open", async () => {
    vi.stubGlobal("fetch", vi.fn());
    renderForm();
    const dialog = chooseDateOfBirth("16", "6", "2008"); // 18 tomorrow
    expect(within(dialog).getByText("Invalid date of birth.")).toBeVisible();
    expect(screen.getByRole("dialog", { name: "Date of birth" })).toBeVisible();
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await submit();
    expect(screen.getByText("Invalid date of birth.")).toBeVisible();
  });

  it("shows the date chosen in the modal on its button", async () => {
    renderForm();
    chooseDateOfBirth("3", "4", "1990");
    expect(screen.getByRole("button", { name: "Date of birth April 3, 1990" })).toBeVisible();
  });

  it("suggests the corrected e-mail address and fills it in on click", () => {
    renderForm();
    type("E-mail address", "sam@gmial.com");
    fireEvent.blur(field("E-mail address"));
    const hint = screen.getByRole("status");
    expect(hint.textContent).toBe("Did you mean sam@gmail.com?");
    fireEvent.click(within(hint).getByRole("button", { name: "sam@gmail.com" }));
    expect(field("E-mail address").value).toBe("sam@gmail.com");
    expect(screen.queryByText(/Did you mean/)).toBeNull();
  });

  it("sends step 0 and shows a taken address with the server's message and a log-in link", async () => {
    const fetch = vi.fn(async () =>
      Response.json(
        {
          error: "email_taken",
          message: "An account with this e-mail address already exists",
          fields: { email: "An account with this e-mail address already exists" },
        },
        { status: 409 },
      ),
    );
    vi.stubGlobal("fetch", fetch);
    renderForm();
    await fillValid();
    await submit();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/signup.php");
    expect(JSON.parse(init.body as string)).toEqual({
      email: "sam@example.com",
      name: "Sam",
      password: "correct horse battery",
      date_of_birth: "1990-04-03",
      gender: "male",
      seeking: "female",
    });
    expect(screen.getByText(/An account with this e-mail address already exists/)).toBeVisible();
    expect(screen.getByRole("link", { name: "Log in" }).getAttribute("href")).toBe("/login");
    expect(document.activeElement).toBe(field("E-mail address"));
  });

  it("reports the new member once the account exists", async () => {
    const user = {
      id: 1,
      email: "sam@example.com",
      status: "not_confirmed",
      profile: { id: 1, name: "Sam", status: "disabled", gender: "male", seeking: "female", main_image: null },
      paid_user: false,
      credits: 20,
      fictional_icon: "masks",
      language: "en",
      notifications_disabled: [],
      push_subscription: false,
      signup_date: "2026-06-15T00:00:00.000Z",
      invisible: false,
      hide_presence: false,
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ user })),
    );
    const onCreated = renderForm();
    await fillValid();
    await submit();
    expect(onCreated).toHaveBeenCalledWith(user);
  });
});
