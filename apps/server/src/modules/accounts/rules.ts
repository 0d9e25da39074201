import { ACCOUNT_RULES, ageOn, dateOfBirthSchema, type ErrorCode, emailSchema, nameProblem } from "@app/contract";
import { dictionary } from "@zxcvbn-ts/language-common";

/** The 49k most common passwords (zxcvbn-ts's list), compared case-insensitively. */
const COMMON_PASSWORDS = new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase()));

/** A field's problem: the error code of its message. */
export type FieldProblems = Record<string, ErrorCode>;

export function emailProblem(email: string): ErrorCode | null {
  return emailSchema.safeParse(email).success ? null : "invalid_email";
}

/** Password rules stated in the UI: 8 to 128 characters, not a common password, not the e-mail address. */
export function passwordProblem(password: string, email?: string): ErrorCode | null {
  if (password.length < ACCOUNT_RULES.passwordMin) return "password_too_short";
  if (password.length > ACCOUNT_RULES.passwordMax) return "password_too_long";
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return "password_too_common";
  if (email && password.trim().toLowerCase() === email.trim().toLowerCase()) return "password_is_email";
  return null;
}

/** Date of birth: a real date, at least 18 (spec: "{min_age}+") and not absurdly old. */
export function dateOfBirthProblem(dateOfBirth: string, today = new Date()): ErrorCode | null {
  if (!dateOfBirthSchema.safeParse(dateOfBirth).success) return "invalid_date_of_birth";
  const age = ageOn(dateOfBirth, today);
  if (Number.isNaN(age) || age < ACCOUNT_RULES.minAge || age > ACCOUNT_RULES.maxAge) return "invalid_date_of_birth";
  return null;
}

export { nameProblem };
