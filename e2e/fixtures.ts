import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, type BrowserContextOptions, test as base, expect, type Page } from "@playwright/test";

export { expect };

const localesDir = path.join(import.meta.dirname, "../apps/web/app/i18n/locales");

/** A message of a locale file with {placeholders} filled (simple arguments only). */
export function message(locale: string, id: string, values: Record<string, string> = {}): string {
  const catalogue = JSON.parse(readFileSync(path.join(localesDir, `${locale}.json`), "utf8")) as Record<string, string>;
  const text = catalogue[id];
  if (text === undefined) throw new Error(`no message ${id} in ${locale}`);
  return text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}

/** Marks the site-entry warning as already skipped, as a returning visitor has it. */
export async function skipEntryWarning(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => window.localStorage.setItem("skipped-site-entry-warning", new Date().toISOString()));
}

/** An alert of the members area (issue #29: they come one at a time), by its key in the browser's storage. */
export type AccountAlert = "activation-reminder" | "add-photos" | "push-alert";

/**
 * Puts a member's alerts where a test needs them, before any page of the browser context runs:
 * `dismissed` closed already (so that the one after them comes up), `timeBonusDelayMs` the time-bonus
 * popup's wait (40 s in the members area, time-bonus-modal.tsx), and with `spendCredits` the 20 credits of
 * the signup spent on two messages (the time-bonus popup is for members without credits).
 */
export async function setAlertState(
  page: Page,
  state: { dismissed?: AccountAlert[]; timeBonusDelayMs?: number; spendCredits?: boolean },
): Promise<void> {
  await page.context().addInitScript(
    ({ dismissed, delay }) => {
      const now = new Date().toISOString();
      for (const alert of dismissed) window.localStorage.setItem(`dismissed-${alert}`, now);
      if (delay !== null) window.localStorage.setItem("time-bonus-modal-delay-ms", String(delay));
    },
    { dismissed: state.dismissed ?? [], delay: state.timeBonusDelayMs ?? null },
  );
  if (!state.spendCredits) return;
  const search = await (await page.request.get("/api/members.php")).json();
  const other = search.profiles[0].id as number;
  for (let i = 0; i < 2; i++) {
    const sent = await page.request.post("/api/message.php", {
      data: { profile_id: other, client_id: randomUUID(), text: `Hello ${i}` },
    });
    expect(sent.status()).toBe(200);
  }
}

/**
 * Fails on axe violations of serious or critical impact, in the whole page or in `within` (a selector:
 * with a modal open, scan the modal; the page behind its backdrop is dimmed and inert on purpose).
 */
export async function expectAccessible(page: Page, within?: string): Promise<void> {
  // A modal or a button still fading in has the colours of half its opacity: let every finite
  // transition and animation finish first (a spinner's endless one is left running).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const builder = new AxeBuilder({ page });
  const results = await (within ? builder.include(within) : builder).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Collects console errors and React hydration warnings of a page. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    // A failed load names its resource, so that a failure says which one.
    const url = m.text().startsWith("Failed to load resource") ? ` ${m.location().url}` : "";
    if (m.type() === "error" || /hydrat/i.test(m.text())) problems.push(`${m.text()}${url}`);
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

/** The seeded demo members (README). */
export const DEMO = {
  free: { email: "free@example.com", password: "free-demo-2025" },
  premium: { email: "premium@example.com", password: "premium-demo-2025" },
} as const;

export type Login = keyof typeof DEMO | { email: string; password: string };

/**
 * The suite's test, with a `loginAs` fixture: logs the page's browser context in through the API (the
 * context's cookie jar gets the session), for tests whose subject is not the login form itself.
 */
export const test = base.extend<{ loginAs: (who: Login) => Promise<void> }>({
  loginAs: async ({ page }, use) => {
    await use(async (who) => {
      const credentials = typeof who === "string" ? DEMO[who] : who;
      const response = await page.request.post("/api/user.php", { data: credentials });
      expect(response.status(), `login as ${credentials.email}`).toBe(200);
    });
  },
});

const mailHttp = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3199) - 1}`;

/** Waits for an e-mail to `to` whose subject matches, from the mail catcher (real SMTP), and returns it. */
export async function mailTo(to: string, subject: RegExp): Promise<{ subject: string; text: string; html: string }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const response = await fetch(`${mailHttp}/messages?to=${encodeURIComponent(to)}`);
    const messages = (await response.json()) as { subject: string; text: string; html: string }[];
    const found = messages.reverse().find((m) => subject.test(m.subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The path and query of the first link in a mail's text containing `path` (to open on the test server). */
export function linkPath(mail: { text: string }, path: string): string {
  const match = mail.text.match(new RegExp(`https?://\\S*${path.replace(/[.?]/g, "\\$&")}\\S*`));
  if (!match) throw new Error(`no ${path} link in mail`);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

export const uniqueEmail = (label: string) => `${label}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.org`;

/** Creates an account through the API (the browser's cookie jar gets the session). */
export async function apiSignup(page: Page, email: string, password = "correct horse battery", name = "Robin") {
  const response = await page.request.post("/api/signup.php", {
    data: { email, name, password, date_of_birth: "1991-03-14", gender: "female", seeking: "male" },
  });
  expect(response.status()).toBe(200);
}

/**
 * Waits until React has hydrated the page (root.tsx sets data-hydrated on <html>). A page that loads
 * the app on intent (decision 028) is started first, as a visitor reaching for a control would.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.readyState !== "loading");
  await page.evaluate(() => (window as unknown as { __startApp?: () => void }).__startApp?.());
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Logs in through the login page. */
export async function loginThroughForm(page: Page, email: string, password: string) {
  await page.goto("/login", { waitUntil: "networkidle" });
  await hydrated(page);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** A second browser (own cookies), logged in as `email` on the members page; close its context after use. */
export async function memberInNewContext(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  await skipEntryWarning(context);
  const page = await context.newPage();
  await loginThroughForm(page, email, password);
  await expect(page).toHaveURL(/\/members/);
  return page;
}

/** A member of a test, in a browser context of their own. */
export interface Member {
  page: Page;
  id: number;
  name: string;
}

let clients = 0;

/**
 * A new, confirmed member in a browser of their own, coming from an address of its own (the signup
 * limit counts per address; the test server trusts the runner's X-Forwarded-For). `autoLike: false` marks this browser session's
 * automatic like as asked already (the web asks once a session, see LikesProvider), so that no "New
 * like" pop-up from a fictional profile comes between a test's steps. `locale`: the interface language
 * the browser has chosen (the locale cookie, spec §4).
 */
export async function newMember(
  browser: Browser,
  name: string,
  options: { autoLike?: boolean; context?: BrowserContextOptions; locale?: string } = {},
): Promise<Member> {
  clients++;
  const address = `10.${process.pid % 250}.${Math.floor(clients / 250)}.${clients % 250}`;
  const context = await browser.newContext({ ...options.context, extraHTTPHeaders: { "x-forwarded-for": address } });
  await skipEntryWarning(context);
  if (options.locale) {
    const url = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3199)}`;
    await context.addCookies([{ name: "i18n_redirected", value: options.locale, url }]);
  }
  const page = await context.newPage();
  const email = uniqueEmail(name.toLowerCase());
  await apiSignup(page, email, "correct horse battery", name);
  // The confirmation is the first mail to a new address (its subject is in the member's language).
  const confirmation = await mailTo(email, options.locale ? /./ : /Confirm your e-mail address/);
  await page.goto(linkPath(confirmation, "/api/activation.php?token="));
  const id = (await (await page.request.get("/api/profile.php")).json()).profile.id as number;
  if (options.autoLike === false) {
    await context.addInitScript((profileId) => window.sessionStorage.setItem(`auto-like-asked:${profileId}`, "1"), id);
  }
  return { page, id, name };
}

/** Opens `url` and waits until the page is interactive. */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: "networkidle" });
  await hydrated(page);
}
