/**
 * Pure summing and formatting for bench/bundle-size.ts: the JavaScript a page downloaded (one entry
 * per response) becomes one table row, the goal verdict and the list of the largest files.
 */

/** One JavaScript response: its URL, its decoded size and its size gzipped (zlib level 9). */
export interface ScriptResponse {
  url: string;
  raw: number;
  gzip: number;
}

export interface PageMeasure {
  page: string;
  /** HTTP status of the document; pages that are not 200 are reported, not measured. */
  status: number;
  scripts: ScriptResponse[];
}

export interface PageTotals {
  page: string;
  status: number;
  files: number;
  raw: number;
  gzip: number;
}

export const GOAL_GZIP_BYTES = 100 * 1024;

/** Totals of a page; the same URL downloaded twice counts once (the browser cache would serve it). */
export function totals(measure: PageMeasure): PageTotals {
  const unique = new Map(measure.scripts.map((s) => [s.url, s]));
  let raw = 0;
  let gzip = 0;
  for (const s of unique.values()) {
    raw += s.raw;
    gzip += s.gzip;
  }
  return { page: measure.page, status: measure.status, files: unique.size, raw, gzip };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The table: one row per page, with PASS/FAIL against the goal, or why a page was not measured.
 * `goal: null` prints the sizes alone (the whole app, once a visitor reaches for it: no goal applies).
 */
export function formatTable(pages: PageTotals[], goal: number | null = GOAL_GZIP_BYTES): string[] {
  const width = Math.max(4, ...pages.map((p) => p.page.length));
  const goalColumn = goal === null ? "" : `  goal ≤ ${kb(goal)} gzip`;
  const header = `${"page".padEnd(width)}  ${"files".padStart(5)}  ${"raw".padStart(10)}  ${"gzip".padStart(10)}${goalColumn}`;
  const rows = pages.map((p) => {
    if (p.status !== 200) return `${p.page.padEnd(width)}  ${p.status}, not measured`;
    const verdict = goal === null ? "" : p.gzip <= goal ? "  PASS" : "  FAIL";
    return `${p.page.padEnd(width)}  ${String(p.files).padStart(5)}  ${kb(p.raw).padStart(10)}  ${kb(p.gzip).padStart(10)}${verdict}`;
  });
  return [header, ...rows];
}

/** Whether every measured page meets the goal (pages not measured do not count either way). */
export function allPass(pages: PageTotals[], goal = GOAL_GZIP_BYTES): boolean {
  return pages.filter((p) => p.status === 200).every((p) => p.gzip <= goal);
}

/** The `count` largest files of a page by gzip size, as lines "  12.3 KB gzip  45.6 KB raw  /assets/x.js". */
export function largest(measure: PageMeasure, count = 10): string[] {
  const unique = [...new Map(measure.scripts.map((s) => [s.url, s])).values()];
  return unique
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, count)
    .map(
      (s) =>
        `${kb(s.gzip).padStart(10)} gzip ${kb(s.raw).padStart(10)} raw  ${s.url.startsWith("inline:") ? `script ${s.url.slice(7)} in the HTML` : new URL(s.url, "http://x").pathname}`,
    );
}
