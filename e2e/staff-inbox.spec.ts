import { expect, expectAccessible, message, newMember, open, test, watchConsole } from "./fixtures";
import { staffLoginInBrowser } from "./staff-helpers";

/** Where the lead looks at the inbox (the task's screenshot). */
const SHOT = process.env.INBOX_SHOT ?? "/work/wt/shots/inbox.png";

test("an operator claims a member's message to a fictional profile and answers it; the member sees it live, marked fictional", async ({
  browser,
}) => {
  test.slow(); // A member signed up, an operator made and logged in with TOTP, two pages, two axe scans.
  const t = (id: string, values: Record<string, string> = {}) => message("en", id, values);

  // A new member writes to a fictional profile from its chat page.
  const mia = await newMember(browser, "Mia", { autoLike: false });
  const search = await (await mia.page.request.get("/api/members.php?page=1")).json();
  const persona = (search.profiles as { id: number; name: string; fictional: boolean }[]).find((p) => p.fictional);
  expect(persona, "a fictional profile in the member's search").toBeTruthy();
  const { id: personaId, name: personaName } = persona as { id: number; name: string };
  await open(mia.page, `/members/${personaId}/chat`);
  const field = mia.page.getByRole("textbox", { name: t("chat.message_label", { name: personaName }) });
  const log = mia.page.getByRole("log");
  await field.fill("Hi! Do you like sailing?");
  await field.press("Enter");
  await expect(log.getByText("Hi! Do you like sailing?")).toBeVisible({ timeout: 15_000 });

  // A new operator logs in with their authenticator code and opens the inbox from the sidebar.
  const context = await browser.newContext();
  const operator = await context.newPage();
  const problems = watchConsole(operator);
  const account = await staffLoginInBrowser(operator, "operator");
  await operator
    .getByRole("navigation", { name: t("staff.nav.label") })
    .getByRole("link", { name: t("staff.nav.inbox") })
    .click();
  await expect(operator.getByRole("heading", { name: t("staff.inbox.title") })).toBeVisible();
  const queue = operator.getByRole("list", { name: t("staff.inbox.queue") });
  const row = queue.getByRole("button", { name: new RegExp(`^Mia → ${personaName}`) });
  await expect(row).toBeVisible();
  await expectAccessible(operator);

  // j/k reach Mia's conversation (other specs may have left conversations waiting), Enter claims and opens it.
  const rows = queue.getByRole("button");
  const index = await rows.evaluateAll(
    (buttons, name) => buttons.findIndex((b) => b.textContent?.startsWith(`Mia → ${name}`)),
    personaName,
  );
  for (let i = 0; i < index; i++) await operator.keyboard.press("j");
  await expect(row).toHaveAttribute("aria-current", "true");
  await operator.keyboard.press("Enter");
  await expect(operator.getByText(/^Yours until/)).toBeVisible();
  await expect(
    operator.getByRole("list", { name: t("staff.inbox.history"), exact: true }).getByText("Hi! Do you like sailing?"),
  ).toBeVisible();

  // Mia types: the operator sees it. The operator types: Mia sees the fictional profile typing.
  // The operator's live stream opens after the claim; a member who goes on typing sends a frame every
  // 2 s (TYPING_THROTTLE_MS), so Mia keeps typing until one reaches the open stream (CI saw the first
  // frame arrive before the stream was subscribed).
  await expect(async () => {
    await field.pressSequentially("Hello? ", { delay: 50 });
    await expect(operator.getByText(t("staff.inbox.member_typing", { name: "Mia" }))).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  const composer = operator.getByRole("textbox", { name: t("staff.inbox.composer", { name: personaName }) });
  await composer.pressSequentially("I love sailing, ", { delay: 30 });
  await expect(mia.page.getByText(t("chat.typing", { name: personaName }))).toBeVisible();
  await composer.pressSequentially("and you?");
  await expect(operator.locator(".staff-main")).toBeVisible();
  await operator.screenshot({ path: SHOT, fullPage: true });
  await operator.getByRole("button", { name: t("staff.inbox.send") }).click();

  // Mia's open tab shows the answer at once, from the profile with the fictional mark.
  await expect(log.getByText("I love sailing, and you?")).toBeVisible();
  const header = mia.page.getByRole("heading", { name: new RegExp(personaName) });
  await expect(header.getByRole("img", { name: t("fictional.badge") })).toBeVisible();
  // The answer left the queue and the claim went with it.
  await expect(row).toHaveCount(0);
  await expectAccessible(operator);

  // The figures count the operator's first answer.
  await operator.getByRole("link", { name: t("staff.inbox.figures.title") }).click();
  await expect(operator.getByRole("heading", { name: t("staff.inbox.figures.title") })).toBeVisible();
  await expect(operator.getByRole("cell", { name: account.name })).toBeVisible();
  await expectAccessible(operator);
  expect(problems).toEqual([]);
  await context.close();
  await mia.page.context().close();
});
