/**
 * Lighthouse (mobile preset: simulated slow 4G, 4× slower CPU) on `/` and three landers as a visitor,
 * and on `/members` logged in as the free demo member, against the production build served by the real server.
 * Builds the web app when needed and starts the server on a free loopback port with a temporary, seeded
 * DATA_DIR (bench/prod-server.ts), prints per page the performance score, FCP, LCP,
 * TBT, CLS and the bytes transferred for HTML, CSS and JS, then stops the server and Chromium.
 * Installs nothing: Lighthouse and chrome-launcher are dev dependencies of this workspace.
 *
 *   npm run bench:lighthouse     (CHROMIUM_PATH to use another browser, BENCH_RUNS=3 for medians,
 *                                 BENCH_URL=http://127.0.0.1:3310 to measure a server already running,
 *                                 BENCH_SAVE=/tmp/lh to keep each report as /tmp/lh-<page>.json,
 *                                 BENCH_PAGES=/,/members to audit only those paths)
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumFlags as chromeFlags, chromiumPath as chromePath } from "../e2e/chromium.ts";
import { type BenchServer, startServer } from "./prod-server.ts";

const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));

async function login(base: string): Promise<string> {
  const response = await fetch(`${base}/api/user.php`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: "free@example.com", password: "free-demo-2025" }),
  });
  const session = response.headers.getSetCookie().find((c) => c.startsWith("auth."));
  if (!response.ok || !session) throw new Error(`login failed: HTTP ${response.status}`);
  return session.split(";")[0] as string;
}

interface NetworkItem {
  resourceType?: string;
  mimeType?: string;
  transferSize?: number;
}

interface PageResult {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  html: number;
  css: number;
  js: number;
  lcpElement: string;
}

async function audit(url: string, port: number, cookie: string | null): Promise<PageResult> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance"],
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const { lhr } = result;
  if (process.env.BENCH_SAVE)
    await writeFile(`${process.env.BENCH_SAVE}-${new URL(url).pathname.replace(/\W+/g, "_")}.json`, JSON.stringify(lhr));
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const items = ((lhr.audits["network-requests"]?.details as { items?: NetworkItem[] } | undefined)?.items ??
    []) as NetworkItem[];
  const bytes = (type: string) => items.filter((i) => i.resourceType === type).reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
  // Lighthouse 13 names the LCP element in its LCP breakdown insight.
  const lcpItems = (lhr.audits["lcp-breakdown-insight"]?.details as { items?: { type?: string; snippet?: string }[] } | undefined)
    ?.items;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: numeric("first-contentful-paint"),
    lcp: numeric("largest-contentful-paint"),
    tbt: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    html: bytes("Document"),
    css: bytes("Stylesheet"),
    js: bytes("Script"),
    lcpElement: lcpItems?.find((item) => item.type === "node")?.snippet ?? "?",
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

let chrome: chromeLauncher.LaunchedChrome | undefined;
let server: BenchServer | undefined;
let failed = false;
const cleanUp = async () => {
  await chrome?.kill();
  await server?.stop();
};
// Interrupted (Ctrl-C, a timeout) or crashed: stop the server and the browser before leaving.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}
process.once("uncaughtException", (error) => {
  console.error(error);
  void cleanUp().finally(() => process.exit(1));
});
try {
  if (!existsSync(chromePath))
    throw new Error(`no Chromium at ${chromePath} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  server = process.env.BENCH_URL
    ? { base: process.env.BENCH_URL.replace(/\/$/, ""), stop: async () => {} }
    : await startServer("lighthouse");
  const { base } = server;
  const cookie = await login(base);
  const browser = await chromeLauncher.launch({ chromePath, chromeFlags });
  chrome = browser;
  const allPages = [
    { name: "/ (visitor)", url: `${base}/`, cookie: null },
    { name: "/members (logged in)", url: `${base}/members`, cookie },
    // Issue #13's lander goal: lab LCP ≤ 1.5 s on a phone profile (a photo grid, a map, an animation).
    { name: "/landers/gallery", url: `${base}/landers/gallery`, cookie: null },
    { name: "/landers/maplanding", url: `${base}/landers/maplanding`, cookie: null },
    { name: "/landers/video", url: `${base}/landers/video`, cookie: null },
  ];
  const only = process.env.BENCH_PAGES?.split(",").map((p) => p.trim());
  const pages = only ? allPages.filter((page) => only.includes(new URL(page.url).pathname)) : allPages;
  // A started server answers its first renders slowly (JIT, database caches); Lighthouse adds the
  // observed server time to its simulation, so each page is fetched a few times first.
  for (const page of pages) {
    for (let i = 0; i < 3; i++) {
      await fetch(page.url, { headers: { "accept-encoding": "br", ...(page.cookie ? { cookie: page.cookie } : {}) } }).then((r) =>
        r.arrayBuffer(),
      );
    }
  }
  console.log(`Lighthouse mobile preset (simulated slow 4G, 4x CPU), ${runs} run(s) per page, median shown`);
  for (const page of pages) {
    const results: PageResult[] = [];
    for (let i = 0; i < runs; i++) {
      // A failed trace (NO_NAVSTART, NO_FCP) happens now and then on a busy machine: one more try.
      results.push(await audit(page.url, browser.port, page.cookie).catch(() => audit(page.url, browser.port, page.cookie)));
    }
    const m = (key: keyof Omit<PageResult, "lcpElement">) => median(results.map((r) => r[key]));
    console.log(
      [
        `${page.name.padEnd(22)} performance ${String(m("score")).padStart(3)}`,
        `FCP ${seconds(m("fcp"))}`,
        `LCP ${seconds(m("lcp"))}`,
        `TBT ${m("tbt").toFixed(0)} ms`,
        `CLS ${m("cls").toFixed(3)}`,
        `transferred: HTML ${kb(m("html"))}, CSS ${kb(m("css"))}, JS ${kb(m("js"))}`,
      ].join("  "),
    );
    console.log(`${"".padEnd(22)} LCP element: ${results[0]?.lcpElement.slice(0, 140)}`);
  }
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await cleanUp();
}
process.exit(failed ? 1 : 0);
