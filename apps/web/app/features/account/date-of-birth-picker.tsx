import { ACCOUNT_RULES, ageOn } from "@app/contract";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { SelectField, type SelectOption } from "../../ui/select-field";

/** The three choices of the picker; "" while not chosen. Month is 1-12. */
export interface DateParts {
  day: string;
  month: string;
  year: string;
}

export const EMPTY_DATE: DateParts = { day: "", month: "", year: "" };

/** YYYY-MM-DD of the chosen parts (not checked for existence), or null while incomplete. */
export function partsToIsoDate(parts: DateParts): string | null {
  if (!parts.day || !parts.month || !parts.year) return null;
  return `${parts.year.padStart(4, "0")}-${parts.month.padStart(2, "0")}-${parts.day.padStart(2, "0")}`;
}

/**
 * Spec §5: a date of birth is valid when it exists and the age on `today` is between the minimum
 * (18) and the maximum age. Returns the ISO date, or null when incomplete or invalid.
 */
export function validDateOfBirth(parts: DateParts, today: Date = new Date()): string | null {
  const iso = partsToIsoDate(parts);
  if (!iso) return null;
  const age = ageOn(iso, today);
  if (Number.isNaN(age) || age < ACCOUNT_RULES.minAge || age > ACCOUNT_RULES.maxAge) return null;
  return iso;
}

export function monthNames(locale: string): string[] {
  const format = new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" });
  return Array.from({ length: 12 }, (_, month) => format.format(new Date(Date.UTC(2000, month, 1))));
}

export interface DateOfBirthPickerProps {
  id: string;
  value: DateParts;
  onChange: (value: DateParts) => void;
  /** The message to show, e.g. "Invalid date of birth."; marks the selects invalid. */
  error?: string;
  today?: Date;
  /** The legend for assistive technology only (the date-of-birth modal's title says it already). */
  legendHidden?: boolean;
}

/**
 * The date-of-birth picker: day, month (named in the current locale) and year, with the hint
 * "Enter your date of birth (18+)". Years run from the minimum age back to the maximum age.
 */
export function DateOfBirthPicker({
  id,
  value,
  onChange,
  error,
  today = new Date(),
  legendHidden = false,
}: DateOfBirthPickerProps) {
  const intl = useIntl();
  const newest = today.getUTCFullYear() - ACCOUNT_RULES.minAge;
  const oldest = today.getUTCFullYear() - ACCOUNT_RULES.maxAge - 1;
  const years = Array.from({ length: newest - oldest + 1 }, (_, i) => String(newest - i));
  const months = monthNames(intl.locale);
  const describedBy = dateOfBirthDescribedBy(id, error);
  const select = (part: keyof DateParts, labelId: string, options: SelectOption[]) => (
    <SelectField
      id={`${id}-${part}`}
      className="flex-fill"
      label={intl.formatMessage({ id: labelId })}
      labelHidden
      value={value[part]}
      options={options}
      onChange={(chosen) => onChange({ ...value, [part]: chosen })}
      blank={intl.formatMessage({ id: labelId })}
      invalid={Boolean(error)}
      describedBy={describedBy}
      autoComplete={part === "day" ? "bday-day" : part === "month" ? "bday-month" : "bday-year"}
    />
  );
  return (
    <fieldset className="mb-3">
      <legend className={legendHidden ? "visually-hidden" : "form-label fs-6 mb-2"}>
        <FormattedMessage id="dob.label" />
      </legend>
      <div className="d-flex gap-2">
        {select(
          "day",
          "dob.day",
          Array.from({ length: 31 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) })),
        )}
        {select(
          "month",
          "dob.month",
          months.map((name, i) => ({ value: String(i + 1), label: name })),
        )}
        {select(
          "year",
          "dob.year",
          years.map((year) => ({ value: year, label: year })),
        )}
      </div>
      <DateOfBirthHint id={id} error={error} />
    </fieldset>
  );
}

/** The ids a date-of-birth control is described by: the hint, and the error while there is one. */
export function dateOfBirthDescribedBy(id: string, error?: string): string {
  return error ? `${id}-hint ${id}-error` : `${id}-hint`;
}

/**
 * The hint "Enter your date of birth (18+)" and the error below a date-of-birth control, with the ids
 * of `dateOfBirthDescribedBy`.
 */
export function DateOfBirthHint({ id, error }: { id: string; error?: string }) {
  return (
    <>
      <Form.Text id={`${id}-hint`} muted>
        <FormattedMessage id="dob.hint" values={{ min_age: ACCOUNT_RULES.minAge }} />
      </Form.Text>
      {error ? (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {error}
        </div>
      ) : null}
    </>
  );
}
