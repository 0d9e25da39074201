/**
 * The JavaScript a visitor's browser downloads per page, against the production build served by the
 * real server: for each page, headless Chromium loads it as a first-time, logged-out visitor (the
 * site-entry warning showing where it does), waits until the page loaded and the network is idle, and
 * sums the JavaScript responses and the scripts written into the HTML (each counted as a file):
 * files, raw bytes, and gzip bytes — each decoded body gzipped here with
 * zlib level 9 (the level of the build's precompressed `.gz` siblings, so the same numbers the server
 * sends to a gzip-only client). Prints one row per page with PASS/FAIL against the goal (≤ 100 KB gzip).
 *
 * A page that loads the app only when the visitor reaches for a control (decision 028) is measured
 * twice: as visited (the goal), and again once the visitor reached for the app (the bench starts it
 * as a pointer on a button would, and waits until React hydrated and the network is idle): that
 * second table has no goal, it says what the first interaction costs. Then the largest files of `/`
 * once the app is there. Pages that do not answer 200 are listed as not measured. Exits 1 when a
 * measured page is over the goal.
 *
 * Then `/members` as the logged-in free demo member (the members area's first screen, issue #29), once
 * hydrated and idle, against its own budget (≤ 200 KB gzip). In `npm test`, bench/members-first-load.test.ts holds
 * the part loaded before hydration to it, from the build alone.
 *
 *   npm run bench:bundle     (BENCH_PAGES=/members to measure only those paths, BENCH_URL=http://127.0.0.1:3420 to measure a server already running, BENCH_TOP=80
 *                             to list more of the files of `/`,
 *                             CHROMIUM_PATH to use another browser)
 */
import { existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { type Browser, chromium, type Page } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "../e2e/chromium.ts";
import {
  allPass,
  formatTable,
  largest,
  MEMBERS_GOAL_GZIP_BYTES,
  type PageMeasure,
  type ScriptResponse,
  totals,
} from "./bundle-report.ts";
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

/** A script's decoded size and its size gzipped at level 9 (the build's `.gz` siblings). */
const sized = (url: string, body: Buffer): ScriptResponse => ({
  url,
  raw: body.length,
  gzip: gzipSync(body, { level: 9 }).length,
});

/** The page as visited, and with the app once the visitor reached for it (the same for pages that load it at once). */
interface Visit {
  visited: PageMeasure;
  app: PageMeasure;
}

async function measure(browser: Browser, base: string, path: string, member = false): Promise<Visit> {
  // A fresh context per page: an empty cache, no cookies, no storage, as a first visit.
  const context = await browser.newContext();
  try {
    if (member) {
      const response = await context.request.post(`${base}/api/user.php`, {
        data: { email: "free@example.com", password: "free-demo-2025" },
        headers: { origin: base },
      });
      if (!response.ok()) throw new Error(`login failed: HTTP ${response.status()}`);
    }
    const page = await context.newPage();
    const network = trackNetwork(page);
    const pending: Promise<ScriptResponse | null>[] = [];
    page.on("response", (response) => {
      const type = response.request().resourceType();
      const isScript = type === "script" || /\.m?js(?:$|\?)/.test(new URL(response.url()).pathname);
      if (!isScript || response.status() !== 200) return;
      pending.push(
        response.body().then(
          (body) => sized(response.url(), body),
          () => null,
        ),
      );
    });
    const collected = async () => (await Promise.all(pending)).filter((s): s is ScriptResponse => s !== null);
    const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
    const status = response?.status() ?? 0;
    if (status !== 200) return { visited: { page: path, status, scripts: [] }, app: { page: path, status, scripts: [] } };
    await page.waitForLoadState("networkidle");
    const onIntent = await page.evaluate(() => document.documentElement.dataset.start === "intent");
    if (!onIntent) await hydratedAndIdle(page, network);
    // The scripts written into the HTML count too (ours, React Router's loader data): one entry each.
    const texts = await page.evaluate(() =>
      [...document.querySelectorAll("script:not([src])")].map((script) => script.textContent ?? ""),
    );
    const inline = texts.map((text, i) => sized(`inline:${i}`, Buffer.from(text)));
    const visited: PageMeasure = { page: path, status, scripts: [...inline, ...(await collected())] };
    if (onIntent) {
      await page.evaluate(() => (window as unknown as { __startApp: () => void }).__startApp());
      await hydratedAndIdle(page, network);
    }
    return { visited, app: { page: path, status, scripts: [...inline, ...(await collected())] } };
  } finally {
    await context.close();
  }
}

/** Requests in flight and the moment the last one started or ended. */
interface Network {
  inFlight: () => number;
  lastActivity: () => number;
}

function trackNetwork(page: Page): Network {
  let inFlight = 0;
  let last = Date.now();
  const settle = () => {
    inFlight = Math.max(0, inFlight - 1);
    last = Date.now();
  };
  page.on("request", () => {
    inFlight++;
    last = Date.now();
  });
  page.on("requestfinished", settle);
  page.on("requestfailed", settle);
  return { inFlight: () => inFlight, lastActivity: () => last };
}

/**
 * Hydrated, then 500 ms without a request from then on. Playwright's `networkidle` resolves at once
 * when the page was idle once before (on a busy box, often before hydration), which missed what the
 * page loads right after hydrating (issue #29's third step).
 */
async function hydratedAndIdle(page: Page, network: Network): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, { timeout: 30_000 });
  const deadline = Date.now() + 30_000;
  while (network.inFlight() > 0 || Date.now() - network.lastActivity() < 500) {
    if (Date.now() > deadline) throw new Error("the page did not become idle within 30 s");
    await page.waitForTimeout(100);
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
  const only = process.env.BENCH_PAGES?.split(",").map((p) => p.trim());
  const visits: Visit[] = [];
  for (const path of PAGES.filter((p) => !only || only.includes(p))) visits.push(await measure(browser, server.base, path));
  const rows = visits.map((v) => totals(v.visited));
  console.log("JavaScript downloaded by a first-time visitor who looks at the page (gzip: each body at zlib level 9)");
  for (const line of formatTable(rows)) console.log(line);
  const pass = allPass(rows);
  console.log(pass ? "PASS: every measured page is within the goal" : "FAIL: a measured page is over the goal");
  console.log("\nJavaScript once the visitor reached for a control: the whole app, hydrated and network idle (no goal)");
  for (const line of formatTable(
    visits.map((v) => totals(v.app)),
    null,
  ))
    console.log(line);
  const home = visits[0]?.app;
  if (home && home.status === 200) {
    console.log("largest files of / once the app is there:");
    for (const line of largest(home, Number(process.env.BENCH_TOP ?? 12))) console.log(line);
  }
  // The members area (issue #29): the free demo member's first screen, /members, hydrated and idle.
  let membersPass = true;
  if (!only || only.includes("/members")) {
    const members = (await measure(browser, server.base, "/members", true)).app;
    const row = totals({ ...members, page: "/members (logged in)" });
    console.log("\nJavaScript of the members area's first screen: /members logged in, hydrated and network idle");
    for (const line of formatTable([row], MEMBERS_GOAL_GZIP_BYTES)) console.log(line);
    membersPass = allPass([row], MEMBERS_GOAL_GZIP_BYTES);
    console.log("largest files of /members:");
    for (const line of largest(members, Number(process.env.BENCH_TOP ?? 12))) console.log(line);
  }
  code = pass && membersPass ? 0 : 1;
} catch (error) {
  code = 2;
  console.error(error);
} finally {
  await cleanUp();
}
process.exit(code);
