import { ACCOUNT_RULES, GENDERS, SEEKING, type SignupRequest, type User } from "@app/contract";
import { useState } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { errorCode } from "../../lib/form-errors";
import { useMember } from "../../lib/member";
import { useApiForm } from "../../lib/use-api-form";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { TextField } from "../../ui/text-field";
import { signup as signupCall } from "./api";
import { emailProblem, emailSuggestion, passwordProblem, usernameProblem } from "./client-checks";
import { DateOfBirthField } from "./date-of-birth-field";
import { type DateParts, EMPTY_DATE, validDateOfBirth } from "./date-of-birth-picker";

type Gender = (typeof GENDERS)[number];
type Seeking = (typeof SEEKING)[number];

const FIELDS = ["email", "name", "password", "date_of_birth", "gender", "seeking", "signup_message"] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;

/** Where an error code belongs when the server did not name the field. */
const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  invalid_email: "email",
  email_taken: "email",
  email_pending_deletion: "email",
  invalid_date_of_birth: "date_of_birth",
  name_is_email: "name",
  name_starts_with_at: "name",
  password_too_short: "password",
  password_too_long: "password",
  password_too_common: "password",
  password_is_email: "password",
};

const FIELD_OF_VALUE: Record<keyof SignupValues, Field> = {
  email: "email",
  name: "name",
  password: "password",
  dateOfBirth: "date_of_birth",
  gender: "gender",
  seeking: "seeking",
  signupMessage: "signup_message",
};

const GENDER_LABELS: Record<Gender, string> = { male: "signup.gender_male", female: "signup.gender_female" };
const SEEKING_LABELS: Record<Seeking, string> = {
  male: "signup.seeking_male",
  female: "signup.seeking_female",
  both: "signup.seeking_both",
};

export interface SignupValues {
  email: string;
  name: string;
  password: string;
  dateOfBirth: DateParts;
  gender: Gender | "";
  seeking: Seeking | "";
  signupMessage: string;
}

/** The client-side checks of step 0, as message ids per field. */
export function signupProblems(values: SignupValues, today: Date = new Date()): Partial<Record<Field, string>> {
  const problems: Partial<Record<Field, string>> = {};
  const email = emailProblem(values.email);
  if (email) problems.email = email;
  const name = usernameProblem(values.name, values.email);
  if (name) problems.name = name;
  const password = passwordProblem(values.password, values.email);
  if (password) problems.password = password;
  if (!validDateOfBirth(values.dateOfBirth, today)) problems.date_of_birth = "dob.invalid";
  if (!values.gender) problems.gender = "signup.gender_required";
  if (!values.seeking) problems.seeking = "signup.seeking_required";
  return problems;
}

export interface SignupFormProps {
  /** Signing up from this profile: shows the first-message field and sends via_profile_id. */
  viaProfile?: { id: number; name: string | null };
  /** Reports a request in flight (the modal cannot be closed meanwhile). */
  onBusyChange?: (busy: boolean) => void;
  /** The account exists and the member is logged in. */
  onCreated: (user: User) => void;
  today?: Date;
}

/** Step 0 of the signup (spec §3 Signup form, §5 validation). */
export function SignupForm({ viaProfile, onBusyChange, onCreated, today }: SignupFormProps) {
  const intl = useIntl();
  const member = useMember();
  const [values, setValues] = useState<SignupValues>({
    email: "",
    name: "",
    password: "",
    dateOfBirth: EMPTY_DATE,
    gender: "",
    seeking: "",
    signupMessage: "",
  });
  const [emailTaken, setEmailTaken] = useState(false);
  const [suggestion, setSuggestion] = useState<string | null>(null);
  const { formRef, handleSubmit, busy, errors, formError, clearError } = useApiForm({
    fields: FIELDS,
    fieldOfCode: FIELD_OF_CODE,
    onBusyChange,
  });

  const set = <K extends keyof SignupValues>(key: K, value: SignupValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    // An edited field loses its error until the next submit checks it again.
    clearError(FIELD_OF_VALUE[key]);
    if (key === "email") setEmailTaken(false);
  };
  const problems = (): Errors => {
    const texts: Errors = {};
    for (const [field, id] of Object.entries(signupProblems(values, today)) as [Field, string][]) {
      texts[field] = intl.formatMessage({ id }, { min: ACCOUNT_RULES.passwordMin, max: ACCOUNT_RULES.passwordMax });
    }
    return texts;
  };

  const signup = async () => {
    const request: SignupRequest = {
      email: values.email.trim(),
      name: values.name.trim(),
      password: values.password,
      date_of_birth: validDateOfBirth(values.dateOfBirth, today) ?? "",
      gender: values.gender as Gender,
      seeking: values.seeking as Seeking,
      ...(viaProfile ? { via_profile_id: viaProfile.id } : {}),
      ...(viaProfile && values.signupMessage.trim() ? { signup_message: values.signupMessage.trim() } : {}),
    };
    const user = await signupCall(request);
    if (!user) throw new Error("signup answered without a user");
    member.setUser(user);
    onCreated(user);
  };
  const submit = handleSubmit(signup, {
    before: () => setEmailTaken(false),
    validate: problems,
    onFailure: (error) => setEmailTaken(errorCode(error) === "email_taken"),
  });

  const radioGroup = <V extends string>(
    field: "gender" | "seeking",
    options: readonly V[],
    labels: Record<V, string>,
    legendId: string,
  ) => {
    const errorId = `signup-${field}-error`;
    return (
      <fieldset className="mb-3" aria-describedby={errors[field] ? errorId : undefined}>
        <legend className="form-label fs-6 mb-1">
          <FormattedMessage id={legendId} />
        </legend>
        {options.map((option, index) => (
          <Form.Check
            key={option}
            inline
            type="radio"
            name={`signup-${field}`}
            id={`signup-${field}-${option}`}
            label={intl.formatMessage({ id: labels[option] })}
            checked={values[field] === option}
            onChange={() => set(field, option as SignupValues[typeof field])}
            isInvalid={!!errors[field]}
            aria-invalid={errors[field] && index === 0 ? true : undefined}
          />
        ))}
        {errors[field] ? (
          <div id={errorId} className="invalid-feedback d-block">
            {errors[field]}
          </div>
        ) : null}
      </fieldset>
    );
  };

  return (
    <Form ref={formRef} noValidate onSubmit={submit} aria-busy={busy}>
      <FormAlert>{formError}</FormAlert>
      <TextField
        id="signup-email"
        label={<FormattedMessage id="auth.email" />}
        type="email"
        inputMode="email"
        autoComplete="email"
        maxLength={254}
        required
        value={values.email}
        onChange={(value) => {
          set("email", value);
          if (suggestion) setSuggestion(emailSuggestion(value));
        }}
        onBlur={() => setSuggestion(emailSuggestion(values.email))}
        error={
          errors.email ? (
            <>
              {errors.email}
              {emailTaken ? (
                <>
                  {" "}
                  <Link to="/login">
                    <FormattedMessage id="signup.login_link" />
                  </Link>
                </>
              ) : null}
            </>
          ) : undefined
        }
      >
        {suggestion ? (
          <div className="form-text" role="status">
            <FormattedMessage
              id="auth.email_suggestion"
              values={{
                suggestion,
                fix: (chunks) => (
                  <button
                    type="button"
                    className="btn btn-link p-0 align-baseline"
                    onClick={() => {
                      set("email", suggestion);
                      setSuggestion(null);
                    }}
                  >
                    {chunks}
                  </button>
                ),
              }}
            />
          </div>
        ) : null}
      </TextField>
      <TextField
        id="signup-name"
        label={<FormattedMessage id="signup.name" />}
        autoComplete="nickname"
        maxLength={ACCOUNT_RULES.nameMax}
        required
        value={values.name}
        onChange={(value) => set("name", value)}
        hint={<FormattedMessage id="signup.name_hint" />}
        error={errors.name}
      />
      <TextField
        id="signup-password"
        label={<FormattedMessage id="auth.password" />}
        type="password"
        autoComplete="new-password"
        required
        value={values.password}
        onChange={(value) => set("password", value)}
        hint={<FormattedMessage id="auth.password_rule" values={{ min: ACCOUNT_RULES.passwordMin }} />}
        error={errors.password}
      />
      <DateOfBirthField
        id="signup-dob"
        value={values.dateOfBirth}
        onChange={(value) => set("dateOfBirth", value)}
        error={errors.date_of_birth}
        today={today}
      />
      {radioGroup("gender", GENDERS, GENDER_LABELS, "signup.gender")}
      {radioGroup("seeking", SEEKING, SEEKING_LABELS, "signup.seeking")}
      {viaProfile ? (
        <TextField
          id="signup-message"
          rows={3}
          label={
            viaProfile.name ? (
              <FormattedMessage id="signup.message_to" values={{ name: viaProfile.name }} />
            ) : (
              <FormattedMessage id="signup.message" />
            )
          }
          maxLength={ACCOUNT_RULES.signupMessageMax}
          value={values.signupMessage}
          onChange={(value) => set("signupMessage", value)}
          hint={<FormattedMessage id="signup.message_hint" />}
          error={errors.signup_message}
        />
      ) : null}
      <p className="small text-body-secondary">
        <FormattedMessage
          id="signup.accept_terms"
          values={{
            terms: (chunks) => (
              <a href="/pages/terms" target="_blank" rel="noopener">
                {chunks}
              </a>
            ),
            privacy: (chunks) => (
              <a href="/pages/privacy" target="_blank" rel="noopener">
                {chunks}
              </a>
            ),
          }}
        />
      </p>
      <BusyButton type="submit" variant="primary" size="lg" className="w-100" busy={busy}>
        <FormattedMessage id={busy ? "signup.submitting" : "signup.submit"} />
      </BusyButton>
    </Form>
  );
}
