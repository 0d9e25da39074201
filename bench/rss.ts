/**
 * Memory of the server process. Part 1 starts the real server (`apps/server/src/main.ts`, production web
 * build, embedded PGlite, the default 320 seeded demo members) in a child process and reads its resident
 * set (RSS) idle and after BENCH_REQUESTS requests each of the search, a profile, a photo and a server-
 * rendered page, with the child's own process.memoryUsage(). Part 2 says what takes it: the same pieces
 * loaded one at a time in this process, each measured after a full GC.
 *
 *   npm run bench:rss        (builds the web app first; BENCH_REQUESTS=500, BENCH_CONNECTIONS=10)
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const requests = Number(process.env.BENCH_REQUESTS ?? 500);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const root = fileURLToPath(new URL("..", import.meta.url));
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0).padStart(5)} MB`;

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

const dir = await mkdtemp(path.join(tmpdir(), "bench-rss-"));
try {
  // ---- Part 1: the real server, idle and loaded.
  // A preloaded probe answers SIGUSR2 with the server's own memoryUsage() (after a full GC) in a file.
  const probe = path.join(dir, "probe.mjs");
  const usageFile = path.join(dir, "usage.json");
  await writeFile(
    probe,
    `import { writeFileSync } from "node:fs";
     process.on("SIGUSR2", () => { globalThis.gc?.(); writeFileSync(${JSON.stringify(usageFile)}, JSON.stringify(process.memoryUsage())); });`,
  );
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", "--import", probe, path.join(root, "apps/server/src/main.ts")],
    {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: path.join(dir, "data"), LOG_LEVEL: "warn" },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  console.log(`server up after ${((Date.now() - started) / 1000).toFixed(1)} s (first start: migrations and seed)`);
  const usageOfServer = async (): Promise<Usage> => {
    await rm(usageFile, { force: true });
    child.kill("SIGUSR2");
    for (let i = 0; i < 100; i++) {
      const text = await readFile(usageFile, "utf8").catch(() => null);
      if (text) return JSON.parse(text) as Usage;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("no answer from the memory probe");
  };
  // Let the start-up work (position backfill, first GCs) settle.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idle = await usageOfServer();

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
    const result = await autocannon({ url: `${base}${target}`, connections, amount: requests });
    if (result.non2xx || result.errors) throw new Error(`${target}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const loaded = await usageOfServer();
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  console.log(`\nthe server (node ${process.version}, PGlite, 320 demo members):`);
  console.log(row("idle after start", idle));
  console.log(row(`after ${requests} × (search, profile, photo, page)`, loaded));

  // ---- Part 2: what takes it, piece by piece in this process (each after a full GC).
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
    const regions = new SiteService(database?.db as never, () => "http://localhost").regions();
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
} finally {
  await rm(dir, { recursive: true, force: true });
}
