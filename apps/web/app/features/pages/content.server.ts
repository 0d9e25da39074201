import { DEFAULT_LOCALE } from "@app/contract";
import { marked } from "marked";
import { fillPlaceholders } from "./placeholders";
import type { PageSlug } from "./slugs";

/**
 * The pages' Markdown, one file per locale and slug (content/<locale>/<slug>.md), imported as text.
 * Lazy: each file is its own chunk of the server build, loaded when a page is asked for; this module
 * is server-only, so no page text reaches the browser's bundles.
 */
const files = import.meta.glob<string>("./content/*/*.md", { query: "?raw", import: "default" });

/** The page's HTML in `locale` (English when that locale has no file), placeholders filled; null if no such page. */
export async function renderPage(slug: PageSlug, locale: string, values: Record<string, string>): Promise<string | null> {
  const load = files[`./content/${locale}/${slug}.md`] ?? files[`./content/${DEFAULT_LOCALE}/${slug}.md`];
  if (!load) return null;
  const markdown = fillPlaceholders(await load(), values);
  return marked.parse(markdown, { async: false, gfm: true });
}
