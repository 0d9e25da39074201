/**
 * Memory of the server process (issue #25: "a node on PostgreSQL ≤ 200 MB idle and ≤ 400 MB under the
 * bench's load; the embedded default ≤ 600 MB"). Part 1 starts the real server (production web build,
 * 320 seeded demo members) in a child process, on each database (embedded PGlite in a fresh DATA_DIR;
 * PostgreSQL in a database it creates and drops) and each way of running it (`tsx` over the TypeScript
 * sources, as `npm start` did before decision 034; `compiled`, plain Node over apps/server/build/main.js,
 * as `npm start` does now). A first start migrates and seeds; each measured start then finds the
 * database ready, as a node of a deployment does. It reads the child's own process.memoryUsage() (after
 * a full GC) idle, and after BENCH_REQUESTS requests each of the search, a profile, a photo and a server-
 * rendered page. Part 2 says what takes it: the same pieces loaded one at a time in this process (which
 * runs through tsx), each measured after a full GC.
 *
 *   npm run bench:rss   (builds first; BENCH_REQUESTS=500, BENCH_CONNECTIONS=10,
 *                        BENCH_RUNTIMES=tsx,compiled, BENCH_DATABASES=pglite,postgres,
 *                        BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (an admin URL),
 *                        BENCH_BREAKDOWN=false skips part 2)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";

const requests = Number(process.env.BENCH_REQUESTS ?? 500);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const runtimes = (process.env.BENCH_RUNTIMES ?? "tsx,compiled").split(",") as Runtime[];
const databases = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",") as DatabaseKind[];
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const root = fileURLToPath(new URL("..", import.meta.url));
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0).padStart(5)} MB`;

type Runtime = "tsx" | "compiled";
type DatabaseKind = "pglite" | "postgres";
type Usage = NodeJS.MemoryUsage;
const row = (label: string, u: Usage) =>
  `${label.padEnd(44)} rss ${mb(u.rss)}  heap used ${mb(u.heapUsed)} / ${mb(u.heapTotal)}  external ${mb(u.external)}  array buffers ${mb(u.arrayBuffers)}`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = await mkdtemp(path.join(tmpdir(), "bench-rss-"));
// A preloaded probe answers SIGUSR2 with the server's own memoryUsage() (after a full GC) in a file.
const probe = path.join(dir, "probe.mjs");
const usageFile = path.join(dir, "usage.json");
await writeFile(
  probe,
  `import { writeFileSync } from "node:fs";
   process.on("SIGUSR2", () => { globalThis.gc?.(); writeFileSync(${JSON.stringify(usageFile)}, JSON.stringify(process.memoryUsage())); });`,
);

interface Node {
  child: ChildProcess;
  base: string;
  usage(): Promise<Usage>;
  stop(): Promise<void>;
}

/** The server as `npm start` runs it (compiled) or as it ran before (tsx), on a free loopback port. */
async function startNode(runtime: Runtime, env: Record<string, string>): Promise<Node> {
  const port = await freePort();
  const entry =
    runtime === "tsx"
      ? ["--import", "tsx", path.join(root, "apps/server/src/main.ts")]
      : // As `npm start` runs it (decision 034: the young generation capped at 2 × 16 MB).
        ["--max-semi-space-size=16", path.join(root, "apps/server/build/main.js")];
  const child = spawn(process.execPath, ["--expose-gc", "--import", probe, ...entry], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await sleep(250);
  }
  return {
    child,
    base,
    async usage() {
      await rm(usageFile, { force: true });
      child.kill("SIGUSR2");
      for (let i = 0; i < 100; i++) {
        const text = await readFile(usageFile, "utf8").catch(() => null);
        if (text) return JSON.parse(text) as Usage;
        await sleep(100);
      }
      throw new Error("no answer from the memory probe");
    },
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** BENCH_REQUESTS requests each of the search, a profile, a photo and a server-rendered page. */
async function load(base: string): Promise<void> {
  const search = (await (await fetch(`${base}/api/members.php?gender=female`)).json()) as {
    profiles: { id: number; main_image: { thumb_url: string } | null }[];
  };
  const card = search.profiles.find((p) => p.main_image) ?? search.profiles[0];
  if (!card) throw new Error("the search found nobody");
  const targets = [
    `/api/members.php?gender=female&min_age=25&max_age=40`,
    `/api/member.php?id=${card.id}`,
    card.main_image ? card.main_image.thumb_url : `/api/member.php?id=${card.id}`,
    `/members/${card.id}`,
  ];
  for (const target of targets) {
    // A generous timeout: on a busy machine a page may take seconds, and an answer is what counts here.
    const result = await autocannon({ url: `${base}${target}`, connections, amount: requests, timeout: 60 });
    if (result.non2xx || result.errors) throw new Error(`${target}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
}

/** A fresh store for `kind`: its environment for the server, and how to remove it. */
async function freshStore(kind: DatabaseKind): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(dir, `${kind}-`));
  if (kind === "pglite") return { env: { DATA_DIR: dataDir }, drop: () => rm(dataDir, { recursive: true, force: true }) };
  const name = `bench_rss_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Part 2: what takes it, piece by piece in this process (each after a full GC). */
async function breakdown(): Promise<void> {
  const gc = globalThis.gc;
  if (!gc) throw new Error("run with node --expose-gc (npm run bench:rss does)");
  const measure = () => {
    gc();
    return process.memoryUsage();
  };
  const steps: { label: string; usage: Usage }[] = [{ label: "node + this script", usage: measure() }];
  const step = async (label: string, work: () => Promise<unknown> | unknown) => {
    await work();
    steps.push({ label, usage: measure() });
  };
  const kept: unknown[] = [];
  const { buildApp } = await import("../apps/server/src/app.ts");
  const { loadConfig } = await import("../apps/server/src/platform/config.ts");
  steps.push({ label: "server code (Fastify, Drizzle, pg, zod, sharp, ...)", usage: measure() });
  await step("locale catalogues (7 languages, parsed)", async () => {
    const { preloadCatalogues } = await import("../apps/server/src/platform/i18n.ts");
    preloadCatalogues();
  });
  let database: Awaited<ReturnType<typeof import("../apps/server/src/platform/db/index.ts").openDatabase>> | undefined;
  await step("PGlite (WASM PostgreSQL) + migrations", async () => {
    const { openDatabase } = await import("../apps/server/src/platform/db/index.ts");
    database = await openDatabase({ dataDir: path.join(dir, "staged") });
  });
  await step("geocoder (country-state-city data, k-d tree)", async () => {
    const { LocationService } = await import("../apps/server/src/modules/location/service.ts");
    const { SiteService } = await import("../apps/server/src/modules/site/service.ts");
    const regions = new SiteService(
      database?.db as never,
      () => "http://localhost",
      () => true,
      null,
    ).regions();
    const location = new LocationService(Object.keys(regions), (country) => (regions[country] ?? []).map((r) => r.code));
    location.coordinatesOf("NL", null, "Amsterdam");
    kept.push(location);
  });
  await step("React Router SSR build (apps/web/build/server)", () => import("../apps/web/build/server/index.js" as string));
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  await step("services + Fastify app with routes", async () => {
    const config = loadConfig({ DATA_DIR: path.join(dir, "staged"), LOG_LEVEL: "silent", HOST: "127.0.0.1" });
    app = await buildApp(config, { web: "production", database });
  });
  await step("seed: 320 demo members with photos (sharp)", async () => {
    const { seed } = await import("../apps/server/src/seed/seed.ts");
    if (app) await seed(app.services, { profiles: 320 });
  });
  console.log("\nwhat takes it (each piece's growth over the previous line, after a full GC):");
  let previous: Usage | undefined;
  for (const { label, usage } of steps) {
    const delta = (key: keyof Usage) => (previous ? usage[key] - previous[key] : usage[key]);
    console.log(
      `${label.padEnd(52)} rss ${mb(delta("rss"))}  heap used ${mb(delta("heapUsed"))}  external ${mb(delta("external"))}  array buffers ${mb(delta("arrayBuffers"))}`,
    );
    previous = usage;
  }
  const last = steps.at(-1)?.usage;
  if (last) console.log(row("total in this process", last));
  await app?.close();
  await database?.close();
  void kept;
}

try {
  // ---- Part 1: the real server, idle and loaded, per database and runtime.
  const results: { label: string; idle: Usage; loaded: Usage }[] = [];
  for (const kind of databases) {
    const store = await freshStore(kind).catch((error: unknown) => {
      console.log(`skipping ${kind}: ${String(error)} (BENCH_DATABASE_URL=${adminUrl})`);
      return null;
    });
    if (!store) continue;
    try {
      let started = Date.now();
      const first = await startNode("compiled", store.env);
      console.log(`${kind}: first start (migrations, seed) ${((Date.now() - started) / 1000).toFixed(1)} s`);
      await first.stop();
      for (const runtime of runtimes) {
        started = Date.now();
        const node = await startNode(runtime, store.env);
        const upAfter = (Date.now() - started) / 1000;
        let idle: Usage;
        let loaded: Usage;
        try {
          // Let the start-up work (position backfill, first GCs) settle.
          await sleep(3000);
          idle = await node.usage();
          await load(node.base);
          loaded = await node.usage();
        } finally {
          await node.stop();
        }
        console.log(`${kind}, ${runtime}: up after ${upAfter.toFixed(1)} s`);
        results.push({ label: `${kind === "pglite" ? "PGlite" : "PostgreSQL"}, ${runtime}`, idle, loaded });
      }
    } finally {
      await store.drop();
    }
  }
  console.log(
    `\nthe server (node ${process.version}, 320 demo members; idle = 3 s after start, loaded = after ${requests} × (search, profile, photo, page)):`,
  );
  for (const { label, idle, loaded } of results) {
    console.log(row(`${label}: idle`, idle));
    console.log(row(`${label}: loaded`, loaded));
  }
  if (process.env.BENCH_BREAKDOWN !== "false") await breakdown();
} finally {
  await rm(dir, { recursive: true, force: true });
}
