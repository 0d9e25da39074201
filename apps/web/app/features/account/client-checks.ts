import { ACCOUNT_RULES, emailSchema, nameProblem } from "@app/contract";
import mailSpellChecker from "@zootools/email-spell-checker";

/**
 * Checks the browser can make before a call, with the same rules the server applies (spec §5 and
 * the accounts issue). The server checks again and has the last word (common passwords, duplicates).
 * Each returns the id of the message to show, or null.
 */
export function emailProblem(email: string): string | null {
  if (!email.trim()) return "auth.required";
  return emailSchema.safeParse(email).success ? null : "auth.email_invalid";
}

export function passwordProblem(password: string, email = ""): string | null {
  if (!password) return "auth.required";
  if (password.length < ACCOUNT_RULES.passwordMin) return "auth.password_too_short";
  if (password.length > ACCOUNT_RULES.passwordMax) return "auth.password_too_long";
  if (email && password.trim().toLowerCase() === email.trim().toLowerCase()) return "auth.password_is_email";
  return null;
}

/** Spec §5: "The entered passwords are not the same." */
export function confirmProblem(password: string, confirmation: string): string | null {
  if (!confirmation) return "auth.required";
  return password === confirmation ? null : "auth.passwords_differ";
}

export function usernameProblem(name: string, email: string): string | null {
  if (!name.trim()) return "auth.required";
  if (name.trim().length > ACCOUNT_RULES.nameMax) return "signup.name_too_long";
  const problem = nameProblem(name, email);
  if (problem === "name_is_email") return "signup.name_is_email";
  if (problem === "name_starts_with_at") return "signup.name_starts_with_at";
  return null;
}

/** Spec §5 "Did you mean …?": the corrected address for a mistyped common domain, else null. */
export function emailSuggestion(email: string): string | null {
  const trimmed = email.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(trimmed)) return null;
  const suggestion = mailSpellChecker.run({ email: trimmed });
  return suggestion && suggestion.full.toLowerCase() !== trimmed.toLowerCase() ? suggestion.full : null;
}
