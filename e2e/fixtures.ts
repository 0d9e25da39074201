import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, test as base, expect, type Page } from "@playwright/test";

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

/** Fails on axe violations of serious or critical impact. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Collects console errors and React hydration warnings of a page. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || /hydrat/i.test(m.text())) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

export const test = base;
