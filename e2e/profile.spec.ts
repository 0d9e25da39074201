import path from "node:path";
import sharp from "sharp";
import { apiSignup, expect, expectAccessible, hydrated, skipEntryWarning, test, uniqueEmail } from "./fixtures";

const shots = path.join(import.meta.dirname, "screenshots");
test.beforeEach(async ({ context }) => skipEntryWarning(context));

/** A real photo file with EXIF and GPS, as a phone would upload it. */
async function photoFile(colour: string) {
  const buffer = await sharp({ create: { width: 900, height: 1200, channels: 3, background: colour } })
    .jpeg()
    .withExif({ IFD0: { Make: "PhoneCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "52/1 22/1 1/1" } })
    .toBuffer();
  return { name: `${colour.slice(1)}.jpg`, mimeType: "image/jpeg", buffer };
}

test("a free member fills in the profile, uploads photos and reaches the limit of 3", async ({ page }) => {
  await apiSignup(page, uniqueEmail("profile"));
  await page.goto("/members", { waitUntil: "networkidle" });
  await hydrated(page);
  // Alerts come one at a time (issue #29): the activation alert first; closed, the add-photos alert
  // shows, with a link to the profile.
  await page.getByRole("alert").filter({ hasText: "Confirm your e-mail address" }).getByRole("button", { name: "Close" }).click();
  await page.getByRole("link", { name: "Add photos and a bio" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await page.waitForLoadState("networkidle");

  await page.getByLabel("Tell other members about yourself").fill("Coffee lover, weekend hiker.");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile has been saved.")).toBeVisible();

  for (const [index, colour] of ["#aa3355", "#3355aa", "#33aa55"].entries()) {
    await page.locator("input[type=file]").setInputFiles(await photoFile(colour));
    await expect(page.getByText(`${index + 1} of 3 photos`)).toBeVisible();
  }
  await expect(page.getByText("Main photo", { exact: true })).toBeVisible();
  await expect(page.getByText(/You have reached the limit of 3 photos/)).toBeVisible();
  await expect(page.locator("input[type=file]")).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: path.join(shots, "profile-limit.png"), fullPage: true });

  // The stored photos carry no metadata.
  const { photos } = await (await page.request.get("/api/photos.php")).json();
  expect(photos).toHaveLength(3);
  const served = await page.request.get(photos[0].url);
  expect((await sharp(await served.body()).metadata()).exif).toBeUndefined();

  // Managing the photos: another main photo, one premium-only, a new order, one deleted.
  type OwnPhoto = { id: number; url: string; is_main: boolean; private: boolean };
  const own = async (): Promise<OwnPhoto[]> => (await (await page.request.get("/api/photos.php")).json()).photos;
  const card = (photo: OwnPhoto) => page.locator(`li[data-photo-id="${photo.id}"]`);
  const [first, second, third] = photos as OwnPhoto[];
  if (!first || !second || !third) throw new Error("three photos expected");
  await card(second).getByRole("button", { name: "Set as main photo" }).click();
  await expect(card(second).getByText("Main photo", { exact: true })).toBeVisible();
  expect((await own()).find((p) => p.is_main)?.id).toBe(second.id);

  await card(third).getByRole("button", { name: "Make premium-only" }).click();
  await expect(card(third).getByText("Premium only", { exact: true })).toBeVisible();
  expect((await own()).find((p) => p.id === third.id)?.private).toBe(true);

  const before = (await own()).map((p) => p.id);
  await card(third).getByRole("button", { name: "Move left" }).click();
  await expect.poll(async () => (await own()).map((p) => p.id)).not.toEqual(before);
  const after = (await own()).map((p) => p.id);
  expect(after.indexOf(third.id)).toBe(before.indexOf(third.id) - 1);
  await expect(page.locator("li[data-photo-id]").nth(after.indexOf(third.id))).toHaveAttribute("data-photo-id", String(third.id));

  await card(first).getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this photo?" });
  await confirm.getByRole("button", { name: "Delete photo" }).click();
  await expect(page.getByText("2 of 3 photos")).toBeVisible();
  await expect(page.locator(".modal, .modal-backdrop")).toHaveCount(0);
  await expect(page.locator("input[type=file]")).toHaveCount(1);
  expect((await own()).map((p) => p.id)).not.toContain(first.id);
  expect((await page.request.get(first.url)).status()).toBe(404);
  await page.screenshot({ path: path.join(shots, "profile-photos-managed.png"), fullPage: true });
});

test("a member's location comes from the browser's position, and others' distances show as buckets", async ({ browser }) => {
  // Haarlem, with the permission already given: the profile fills itself in without a prompt.
  const context = await browser.newContext({
    permissions: ["geolocation"],
    geolocation: { latitude: 52.3812, longitude: 4.6368 },
  });
  await skipEntryWarning(context);
  const page = await context.newPage();
  await apiSignup(page, uniqueEmail("located"));
  await page.goto("/profile", { waitUntil: "networkidle" });
  await hydrated(page);
  await expect(page.getByRole("status").filter({ hasText: "Filled in: Haarlem" })).toBeVisible();
  await expect(page.getByLabel("City")).toHaveValue("Haarlem");
  await expect(page.getByLabel("Country")).toHaveValue("NL");
  await expect(page.getByLabel("Region")).toHaveValue("NL-NH");
  await expect(page.getByRole("button", { name: "Use my current location" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile has been saved.")).toBeVisible();
  await page
    .locator("#profile-details-heading")
    .locator("..")
    .screenshot({ path: path.join(shots, "profile-location.png") });
  const { profile } = await (await page.request.get("/api/profile.php")).json();
  expect(profile).toMatchObject({ country: "NL", region: "NL-NH", city: "Haarlem" });

  // Demo members now show how far away they live, as a bucket.
  await page.goto("/members?gender=male", { waitUntil: "networkidle" });
  const card = page
    .locator(".profile-card")
    .filter({ hasText: /(Less|More) than \d+ km away/ })
    .first();
  await expect(card).toBeVisible();
  await page.screenshot({ path: path.join(shots, "members-distance.png"), fullPage: true });
  await card.click();
  await expect(page.locator("article header").getByText(/^(Less|More) than \d+ km away$/)).toBeVisible();
  await context.close();
});
