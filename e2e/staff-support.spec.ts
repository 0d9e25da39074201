import { DEMO, expect, expectAccessible, hydrated, message, test, watchConsole } from "./fixtures";
import { staffLoginInBrowser } from "./staff-helpers";

const en = (id: string, values: Record<string, string> = {}) => message("en", id, values);

test("support finds a demo member by e-mail, corrects their credits with a reason, and the member sees the new balance", async ({
  page,
  browser,
}) => {
  const problems = watchConsole(page);
  await staffLoginInBrowser(page, "support");
  await page
    .getByRole("navigation", { name: en("staff.nav.label") })
    .getByRole("link", { name: en("staff.nav.members") })
    .click();
  await expect(page.getByRole("heading", { name: en("staff.support.search.title") })).toBeVisible();

  // "/" focuses the search box; typing the start of the address finds the member.
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("/");
  const box = page.getByLabel(en("staff.support.search.label"));
  await expect(box).toBeFocused();
  await box.fill(DEMO.free.email.slice(0, 9));
  const row = page.getByRole("row").filter({ hasText: DEMO.free.email });
  await expect(row).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "/work/wt/shots/support-search.png" });
  // Enter opens the selected (first) member.
  await page.keyboard.press("Escape");
  await page.keyboard.press("j");
  await page.keyboard.press("k");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/staff\/members\/\d+$/);
  const userId = Number(new URL(page.url()).pathname.split("/").at(-1));
  await expect(page.getByText(DEMO.free.email, { exact: false }).first()).toBeVisible();

  const dossier = (await (await page.request.get(`/staff/api/support/members/${userId}`)).json()) as {
    credits: { balance: number };
  };
  const before = dossier.credits.balance;

  // The correction dialog: a real button, focus in the amount field, a reason.
  await page.getByRole("button", { name: en("staff.support.correct.open") }).click();
  const dialog = page.getByRole("dialog", { name: en("staff.support.correct.title") });
  await expect(dialog).toBeVisible();
  const amount = dialog.getByLabel(en("staff.support.correct.delta"));
  await expect(amount).toBeFocused();
  await amount.fill("7");
  await dialog.getByLabel(en("staff.support.reason")).fill("Goodwill: a message did not arrive");
  await expectAccessible(page, "[role=dialog]");
  await dialog.getByRole("button", { name: en("staff.support.correct.submit") }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status")).toContainText(String(before + 7));

  // The ledger and the member's audit log show it.
  await page.getByRole("tab", { name: en("staff.support.tab.credits") }).click();
  await expect(page.getByRole("cell", { name: "correction" }).first()).toBeVisible();
  await page.keyboard.press("8");
  await expect(page.getByRole("cell", { name: "credits.correct" }).first()).toBeVisible();
  await expectAccessible(page);
  const creditsTab = page.getByRole("tab", { name: en("staff.support.tab.credits") });
  await creditsTab.click();
  await expect(creditsTab).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("cell", { name: "correction" }).first()).toBeVisible();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: "/work/wt/shots/support.png" });

  // The member's own page shows the new balance.
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  const login = await member.request.post("/api/user.php", { data: DEMO.free });
  expect(login.status()).toBe(200);
  await member.goto("/credits");
  await hydrated(member);
  // payments.balance in English, with its plural filled in.
  await expect(member.getByText(`You have ${before + 7} credits.`)).toBeVisible();
  await memberContext.close();

  // The demo member's credits as they were (through the same call, audited too).
  const restore = await page.request.post(`/staff/api/support/members/${userId}/credits`, {
    data: { delta: -7, reason: "e2e: back to the demo balance", key: crypto.randomUUID() },
  });
  expect(restore.status(), await restore.text()).toBe(200);
  expect(problems).toEqual([]);
});

test("an operator has no support section and the support API refuses them", async ({ page }) => {
  await staffLoginInBrowser(page, "operator");
  const nav = page.getByRole("navigation", { name: en("staff.nav.label") });
  await expect(nav.getByRole("link", { name: en("staff.nav.home") })).toBeVisible();
  await expect(nav.getByRole("link", { name: en("staff.nav.members") })).toHaveCount(0);
  const refused = await page.request.get(`/staff/api/support/members?q=${encodeURIComponent(DEMO.free.email)}`);
  expect(refused.status()).toBe(403);
});

test("conversations stay closed until support records a reason, which the member's audit log shows", async ({ page }) => {
  await staffLoginInBrowser(page, "support");
  await page.goto("/staff/members");
  await hydrated(page);
  await page.getByLabel(en("staff.support.search.label")).fill(DEMO.premium.email);
  await page.getByRole("row").filter({ hasText: DEMO.premium.email }).getByRole("link").click();
  await page.getByRole("tab", { name: en("staff.support.tab.conversations") }).click();
  await expect(page.getByText(en("staff.support.conversations.closed"))).toBeVisible();
  const reason = page.getByLabel(en("staff.support.reason"));
  await reason.fill("Complaint about a reply");
  await page.getByRole("button", { name: en("staff.support.conversations.open") }).click();
  await expect(page.getByText(/^Open to you until /)).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press("8");
  await expect(page.getByRole("cell", { name: "member.conversations.open" })).toBeVisible();
  await page
    .locator("summary", { hasText: en("staff.audit.show_change") })
    .first()
    .click();
  await expect(page.getByText(/Complaint about a reply/)).toBeVisible();
});
