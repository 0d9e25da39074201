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

/** The members area's budget (issue #29): `/members` logged in, hydrated, at most 200 KB of gzipped JavaScript. */
export const MEMBERS_GOAL_GZIP_BYTES = 200 * 1024;

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

/** React Router's browser manifest (`window.__reactRouterManifest={...}` in the build's `manifest-*.js`), the parts read here. */
export interface RouteManifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { id: string; parentId?: string; module: string; imports?: string[] }>;
}

/** The manifest object out of the build's `manifest-*.js` source. */
export function parseRouteManifest(source: string): RouteManifest {
  return JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1)) as RouteManifest;
}

/**
 * The files a page's HTML makes the browser load before it hydrates (decision 027's deferred
 * `modulepreload` list): the client entry and every route module from the root down to `routeId`,
 * each with its static imports; each file once, in that order. What the app imports later
 * (`import()`, `React.lazy`) is not part of it.
 */
export function firstLoadFiles(manifest: RouteManifest, routeId: string): string[] {
  const chain: string[] = [];
  for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the manifest`);
    chain.unshift(id);
  }
  const files = [manifest.entry.module, ...(manifest.entry.imports ?? [])];
  for (const id of chain) {
    const route = manifest.routes[id] as RouteManifest["routes"][string];
    files.push(route.module, ...(route.imports ?? []));
  }
  return [...new Set(files)];
}

/**
 * The members area's first load in the build, without a browser: the built files of `/members`'s
 * first load (firstLoadFiles) may weigh at most this, leaving room for the scripts written into the
 * HTML (START_SCRIPTS, React Router's context and loader data: about 7 KB gzip for /members logged
 * in, `npm run bench:bundle`) within MEMBERS_GOAL_GZIP_BYTES.
 */
export const MEMBERS_INLINE_ALLOWANCE_BYTES = 10 * 1024;
