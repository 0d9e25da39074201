import path from "node:path";
import sharp from "sharp";
import {
  expect,
  expectAccessible,
  hydrated,
  linkPath,
  mailTo,
  newMember,
  skipEntryWarning,
  test,
  uniqueEmail,
  watchConsole,
} from "./fixtures";
import {
  chooseSignupGenders,
  fillSignupAccount,
  openSignup,
  pickDateOfBirth,
  reachSignupConfirmation,
  skipSignupSteps,
} from "./signup-helpers";

const shots = path.join(import.meta.dirname, "screenshots");
test.beforeEach(async ({ context }) => skipEntryWarning(context));

/** Issue #29: onboarding that builds a profile, and spec §4's location step with its continue-without. */
test("signup asks for interests and the location in steps of their own, each with a continue-without", async ({ page }) => {
  const problems = watchConsole(page);
  const email = uniqueEmail("onboard");
  const dialog = await openSignup(page);
  await fillSignupAccount(dialog, email, "Noor");

  // Spec §2: the date of birth is chosen in a modal of its own, over the signup modal.
  const dobButton = dialog.getByRole("button", { name: /^Date of birth/ });
  await expect(dobButton).toHaveAccessibleName("Date of birth Choose your date of birth");
  await dobButton.click();
  const dob = page.getByRole("dialog", { name: "Date of birth" });
  await expect(dob).toBeVisible();
  await expect(page.locator(".modal-stacked")).toHaveCSS("opacity", "1");
  await expectAccessible(page, ".modal-stacked");
  // Escape closes the picker only, and the date stays unchosen.
  await page.keyboard.press("Escape");
  await expect(dob).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(dobButton).toBeFocused();
  await dobButton.click();
  await pickDateOfBirth(dob, { day: "29", month: "February", year: "1991" });
  // 29 February 1991 does not exist: the picker says so and stays open.
  await expect(dob.getByText("Invalid date of birth.")).toBeVisible();
  await pickDateOfBirth(dob);
  await expect(dob).toBeHidden();
  await expect(dobButton).toHaveAccessibleName("Date of birth March 14, 1991");
  await chooseSignupGenders(dialog);
  await dialog.getByRole("button", { name: "Create my free account" }).click();

  await skipSignupSteps(dialog, "photo", "about");

  // The interests step: chips, up to 12, saved with "Save and continue".
  await expect(dialog.getByRole("heading", { name: "Your interests" })).toBeFocused();
  const save = dialog.getByRole("button", { name: "Save and continue" });
  await expect(save).toBeDisabled();
  for (const interest of ["Music", "Travelling", "Wine"]) {
    await dialog.locator("label", { hasText: new RegExp(`^${interest}$`) }).click();
  }
  await expect(dialog.getByText("Choose up to 12 interests (3 chosen).")).toBeVisible();
  await expectAccessible(page, ".modal");
  await save.click();

  await expect(dialog.getByRole("heading", { name: "Personal information" })).toBeFocused();
  await skipSignupSteps(dialog, "personal");

  // Spec §4: the location is a step of its own, with its continue-without.
  await expect(dialog.getByRole("heading", { name: "Where do you live?" })).toBeFocused();
  await expect(dialog.getByLabel("City")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Save and continue" })).toBeDisabled();
  await expectAccessible(page, ".modal");
  await skipSignupSteps(dialog, "location");
  await reachSignupConfirmation(dialog);

  const { profile } = await (await page.request.get("/api/profile.php")).json();
  expect(profile).toMatchObject({ interests: ["music", "travelling", "wine"], city: null, about: "" });
  expect(profile.date_of_birth).toBe("1991-03-14");
  const mail = await mailTo(email, /Confirm your e-mail address/);
  expect(linkPath(mail, "/api/activation.php?token=")).toContain("token=");
  expect(problems).toEqual([]);
});

test("the location step saves the city typed in", async ({ browser }) => {
  const { page } = await newMember(browser, "Lotte");
  await page.goto("/complete-signup", { waitUntil: "networkidle" });
  await hydrated(page);
  await skipSignupSteps(page, "photo", "about", "interests", "personal");
  await expect(page.getByRole("heading", { name: "Where do you live?" })).toBeVisible();
  await page.getByLabel("City").fill("Utrecht");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await reachSignupConfirmation(page);
  const { profile } = await (await page.request.get("/api/profile.php")).json();
  expect(profile.city).toBe("Utrecht");
  await page.context().close();
});

async function photoFile() {
  const buffer = await sharp({ create: { width: 600, height: 750, channels: 3, background: "#aa3355" } })
    .jpeg()
    .toBuffer();
  return { name: "me.jpg", mimeType: "image/jpeg", buffer };
}

test("the completeness meter's next step changes as the profile fills, and a member without a photo shows the placeholder", async ({
  browser,
}) => {
  const other = await newMember(browser, "Sanne", { autoLike: false });
  const { page } = await newMember(browser, "Jules", { autoLike: false });
  // On /members the compact meter waits in the account menu (no extra alert) and leads to the profile.
  await page.goto("/members", { waitUntil: "networkidle" });
  await hydrated(page);
  await page.locator("#account-menu").click();
  const menuItem = page.getByRole("link", { name: /Your profile is 0% complete.*Next step: add a photo/ });
  await expect(menuItem).toBeVisible();
  // Its next step is readable on the dark menu (contrast at least 4.5:1), also where the pointer rests.
  await menuItem.hover();
  await expectAccessible(page, ".dropdown-menu.show");
  await menuItem.click();
  await expect(page).toHaveURL(/\/profile$/);
  await page.waitForLoadState("networkidle");
  const meter = page.getByTestId("completeness-meter");
  await expect(meter.getByRole("heading")).toHaveText("Your profile is 0% complete");
  await expect(meter.getByRole("progressbar", { name: "Profile completeness" })).toHaveAttribute("aria-valuenow", "0");
  await expectAccessible(page);

  await meter.getByRole("button", { name: "Next step: add a photo" }).click();
  await expect(page.locator("#profile-photo-upload")).toBeFocused();
  await page.locator("#profile-photo-upload").setInputFiles(await photoFile());
  await expect(meter.getByRole("heading")).toHaveText("Your profile is 30% complete");

  await meter.getByRole("button", { name: "Next step: write about yourself" }).click();
  const about = page.getByLabel("Tell other members about yourself");
  await expect(about).toBeFocused();
  await about.fill("Coffee first, then the mountains.");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(meter.getByRole("heading")).toHaveText("Your profile is 55% complete");

  await meter.getByRole("button", { name: "Next step: choose your interests" }).click();
  await expect(page.locator("#profile-interests")).toBeFocused();
  for (const interest of ["Music", "Travelling", "Wine"]) {
    await page.locator("label", { hasText: new RegExp(`^${interest}$`) }).click();
  }
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(meter.getByRole("heading")).toHaveText("Your profile is 75% complete");

  await meter.getByRole("button", { name: "Next step: say where you live" }).click();
  await expect(page.getByLabel("City")).toBeFocused();
  await page.getByLabel("City").fill("Utrecht");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(meter.getByRole("heading")).toHaveText("Your profile is 85% complete");
  await expect(meter.getByRole("button", { name: "Next step: add your personal details" })).toBeVisible();
  await page.locator("#account-menu").click();
  await expect(page.getByTestId("completeness-menu-item")).toContainText("Your profile is 85% complete");
  await page.keyboard.press("Escape");
  await meter.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, "completeness-meter.png") });

  // Sanne has no photo: her profile shows the silhouette, named for assistive technology.
  await page.goto(`/members/${other.id}`, { waitUntil: "networkidle" });
  await expect(page.getByRole("img", { name: "Sanne has no photo yet" })).toBeVisible();
  await expectAccessible(page);
  await other.page.context().close();
  await page.context().close();
});
