import type { Locator, Page } from "@playwright/test";
import { expect, hydrated } from "./fixtures";

/** Opens the signup modal from the home page, as a visitor does, and returns it. */
export async function openSignup(page: Page): Promise<Locator> {
  await page.goto("/", { waitUntil: "networkidle" });
  await hydrated(page);
  await page.getByRole("link", { name: "Sign up for free" }).click();
  const dialog = page.getByRole("dialog", { name: "Sign up for free" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Step 0's e-mail address, username and password. */
export async function fillSignupAccount(dialog: Locator, email: string, name: string): Promise<void> {
  await dialog.getByLabel("E-mail address").fill(email);
  await dialog.getByLabel("Username").fill(name);
  await dialog.getByLabel("Password", { exact: true }).fill("correct horse battery");
}

/** Chooses a date in the open date-of-birth picker (spec §2) and presses "Done"; the month by its English name. */
export async function pickDateOfBirth(picker: Locator, date = { day: "14", month: "March", year: "1991" }): Promise<void> {
  await picker.getByLabel("Day").selectOption(date.day);
  await picker.getByLabel("Month").selectOption({ label: date.month });
  await picker.getByLabel("Year").selectOption(date.year);
  await picker.getByRole("button", { name: "Done" }).click();
}

/** Opens the date-of-birth picker from step 0, chooses 14 March 1991 and waits until it has closed. */
export async function chooseDateOfBirth(page: Page, dialog: Locator): Promise<void> {
  await dialog.getByRole("button", { name: /^Date of birth/ }).click();
  const picker = page.getByRole("dialog", { name: "Date of birth" });
  await pickDateOfBirth(picker);
  await expect(picker).toBeHidden();
}

/** Step 0's "I am a woman looking for men". */
export async function chooseSignupGenders(dialog: Locator): Promise<void> {
  await dialog.getByLabel("A woman").check();
  await dialog.getByLabel("Men", { exact: true }).check();
}

/** The steps after step 0 (signup modal or /complete-signup), by their heading and their continue-without. */
const STEPS = {
  photo: { heading: "Add a photo", skip: "Continue without photo" },
  about: { heading: "About you", skip: "Continue without" },
  interests: { heading: "Your interests", skip: "Continue without interests" },
  personal: { heading: "Personal information", skip: "Continue without" },
  location: { heading: "Where do you live?", skip: "Continue without location" },
} as const;

/** Passes `steps` in order with their continue-without, each once its heading shows. */
export async function skipSignupSteps(scope: Locator | Page, ...steps: (keyof typeof STEPS)[]): Promise<void> {
  for (const step of steps) {
    await expect(scope.getByRole("heading", { name: STEPS[step].heading })).toBeVisible();
    await scope.getByRole("button", { name: STEPS[step].skip }).click();
  }
}

/** After the last step: "Not now" to the push opt-in where this browser is offered it, then the e-mail confirmation. */
export async function reachSignupConfirmation(scope: Locator | Page): Promise<void> {
  const notNow = scope.getByRole("button", { name: "Not now" });
  const confirm = scope.getByRole("heading", { name: "Confirm your e-mail address" });
  await expect(notNow.or(confirm)).toBeVisible();
  if (await notNow.isVisible()) await notNow.click();
  await expect(confirm).toBeVisible();
}
