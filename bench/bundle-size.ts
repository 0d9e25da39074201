/**
 * The JavaScript a visitor's browser downloads per page, against the production build served by the
 * real server: for each page, headless Chromium loads it as a logged-out visitor (the entry warning
 * already skipped, as the browser tests do), waits until React hydrated and the network is idle, and
 * sums the JavaScript responses: files, raw bytes, and gzip bytes — each decoded body gzipped here with
 * zlib level 9 (the level of the build's precompressed `.gz` siblings, so the same numbers the server
 * sends to a gzip-only client). Prints one row per page with PASS/FAIL against the goal (≤ 100 KB gzip),
 * then the largest files of `/`. Pages that do not answer 200 (landers not built yet) are listed as
 * not measured. Exits 1 when a measured page is over the goal.
 *
 *   npm run bench:bundle     (BENCH_URL=http://127.0.0.1:3420 to measure a server already running, BENCH_TOP=80
 *                             to list more of the files of `/`,
 *                             CHROMIUM_PATH to use another browser)
 */
import { existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { type Browser, chromium } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "../e2e/chromium.ts";
import { allPass, formatTable, largest, type PageMeasure, type ScriptResponse, totals } from "./bundle-report.ts";
import { type BenchServer, startServer } from "./prod-server.ts";

const PAGES = [
  "/",
  "/pages/terms",
  "/landers/adultonly",
  "/landers/tinderswipe",
  "/landers/whoneedsstrings",
  "/landers/alonetonight",
  "/landers/collagelanding",
  "/landers/gallery",
  "/landers/iconslanding",
  "/landers/maplanding",
  "/landers/socialnetwork",
  "/landers/transitionsvideolanding",
  "/landers/video",
];

/** The entry warning's "already seen" marker (e2e/fixtures.ts skipEntryWarning). */
const SKIP_ENTRY_WARNING = "skipped-site-entry-warning";

async function measure(browser: Browser, base: string, path: string): Promise<PageMeasure> {
  // A fresh context per page: an empty cache, no cookies, as a first visit.
  const context = await browser.newContext();
  try {
    await context.addInitScript((key) => window.localStorage.setItem(key, new Date().toISOString()), SKIP_ENTRY_WARNING);
    const page = await context.newPage();
    const pending: Promise<ScriptResponse | null>[] = [];
    page.on("response", (response) => {
      const type = response.request().resourceType();
      const isScript = type === "script" || /\.m?js(?:$|\?)/.test(new URL(response.url()).pathname);
      if (!isScript || response.status() !== 200) return;
      pending.push(
        response.body().then(
          (body) => ({ url: response.url(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length }),
          () => null,
        ),
      );
    });
    const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
    const status = response?.status() ?? 0;
    if (status !== 200) return { page: path, status, scripts: [] };
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, { timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    const scripts = (await Promise.all(pending)).filter((s): s is ScriptResponse => s !== null);
    return { page: path, status, scripts };
  } finally {
    await context.close();
  }
}

let browser: Browser | undefined;
let server: BenchServer | undefined;
let code = 0;
const cleanUp = async () => {
  await browser?.close();
  await server?.stop();
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}
try {
  if (!existsSync(chromiumPath))
    throw new Error(`no Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  server = process.env.BENCH_URL
    ? { base: process.env.BENCH_URL.replace(/\/$/, ""), stop: async () => {} }
    : await startServer("bundle");
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  const measures: PageMeasure[] = [];
  for (const path of PAGES) measures.push(await measure(browser, server.base, path));
  const rows = measures.map(totals);
  console.log("JavaScript downloaded by a visitor until hydrated and network idle (gzip: each body at zlib level 9)");
  for (const line of formatTable(rows)) console.log(line);
  const pass = allPass(rows);
  console.log(pass ? "PASS: every measured page is within the goal" : "FAIL: a measured page is over the goal");
  const home = measures[0];
  if (home && home.status === 200) {
    console.log("largest files of /:");
    for (const line of largest(home, Number(process.env.BENCH_TOP ?? 12))) console.log(line);
  }
  code = pass ? 0 : 1;
} catch (error) {
  code = 2;
  console.error(error);
} finally {
  await cleanUp();
}
process.exit(code);
