import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { IntlProvider } from "react-intl";
import { describe, expect, it } from "vitest";
import en from "../../i18n/locales/en.json";
import { DateOfBirthPicker, type DateParts, EMPTY_DATE, monthNames, validDateOfBirth } from "./date-of-birth-picker";

const today = new Date(Date.UTC(2026, 5, 15)); // 15 June 2026
const parts = (day: number, month: number, year: number): DateParts => ({
  day: String(day),
  month: String(month),
  year: String(year),
});

describe("date of birth (spec §5)", () => {
  it("accepts an existing date of someone 18 or older", () => {
    expect(validDateOfBirth(parts(1, 2, 1990), today)).toBe("1990-02-01");
    expect(validDateOfBirth(parts(15, 6, 2008), today)).toBe("2008-06-15"); // 18 today
  });

  it("refuses a date that does not exist", () => {
    expect(validDateOfBirth(parts(30, 2, 1990), today)).toBeNull();
    expect(validDateOfBirth(parts(31, 4, 1990), today)).toBeNull();
    expect(validDateOfBirth(parts(29, 2, 2001), today)).toBeNull();
    expect(validDateOfBirth(parts(29, 2, 2000), today)).toBe("2000-02-29");
  });

  it("refuses anyone under 18 and an incomplete date", () => {
    expect(validDateOfBirth(parts(16, 6, 2008), today)).toBeNull(); // 18 tomorrow
    expect(validDateOfBirth(parts(1, 1, 2015), today)).toBeNull();
    expect(validDateOfBirth({ ...parts(1, 1, 1990), month: "" }, today)).toBeNull();
    expect(validDateOfBirth(EMPTY_DATE, today)).toBeNull();
  });

  it("names the months in the current locale", () => {
    expect(monthNames("en")[0]).toBe("January");
    expect(monthNames("nl")[2]).toBe("maart");
    expect(monthNames("de")[11]).toBe("Dezember");
  });
});

function Picker({ error }: { error?: string }) {
  const [value, setValue] = useState<DateParts>(EMPTY_DATE);
  return (
    <IntlProvider locale="en" messages={en}>
      <DateOfBirthPicker id="dob" value={value} onChange={setValue} error={error} today={today} />
      <output data-testid="value">{validDateOfBirth(value, today) ?? "invalid"}</output>
    </IntlProvider>
  );
}

describe("date-of-birth picker", () => {
  it("has a labelled select per part and the 18+ hint", () => {
    render(<Picker />);
    expect(screen.getByRole("group", { name: "Date of birth" })).toBeVisible();
    const day = screen.getByRole("combobox", { name: "Day" });
    expect(screen.getByRole("combobox", { name: "Month" })).toBeVisible();
    const year = screen.getByRole("combobox", { name: "Year" }) as HTMLSelectElement;
    expect(screen.getByText("Enter your date of birth (18+)")).toBeVisible();
    expect(day.getAttribute("aria-describedby")).toBe("dob-hint");
    // Years start at the minimum age.
    expect(year.options[1]?.value).toBe("2008");
  });

  it("gives a valid date once all three are chosen", () => {
    render(<Picker />);
    fireEvent.change(screen.getByRole("combobox", { name: "Day" }), { target: { value: "9" } });
    fireEvent.change(screen.getByRole("combobox", { name: "Month" }), { target: { value: "11" } });
    expect(screen.getByTestId("value").textContent).toBe("invalid");
    fireEvent.change(screen.getByRole("combobox", { name: "Year" }), { target: { value: "1985" } });
    expect(screen.getByTestId("value").textContent).toBe("1985-11-09");
    expect(screen.getByRole("option", { name: "November" })).toBeVisible();
  });

  it("gives no date for an impossible day and for someone under 18", () => {
    render(<Picker />);
    fireEvent.change(screen.getByRole("combobox", { name: "Day" }), { target: { value: "31" } });
    fireEvent.change(screen.getByRole("combobox", { name: "Month" }), { target: { value: "6" } });
    fireEvent.change(screen.getByRole("combobox", { name: "Year" }), { target: { value: "1990" } });
    expect(screen.getByTestId("value").textContent).toBe("invalid");
    fireEvent.change(screen.getByRole("combobox", { name: "Day" }), { target: { value: "20" } });
    expect(screen.getByTestId("value").textContent).toBe("1990-06-20");
    fireEvent.change(screen.getByRole("combobox", { name: "Year" }), { target: { value: "2008" } });
    expect(screen.getByTestId("value").textContent).toBe("invalid");
  });

  it("shows the error tied to every select", () => {
    render(<Picker error="Invalid date of birth." />);
    const day = screen.getByRole("combobox", { name: "Day" });
    expect(day.getAttribute("aria-invalid")).toBe("true");
    expect(day.getAttribute("aria-describedby")).toBe("dob-hint dob-error");
    expect(document.getElementById("dob-error")?.textContent).toBe("Invalid date of birth.");
  });
});
