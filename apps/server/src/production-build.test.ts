import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webRoot } from "./platform/http/ssr.ts";
import { t } from "./platform/i18n.ts";

/**
 * The server as `npm start` runs it (issue #25, "Production build"; decision 034): compiled by
 * apps/server/scripts/build.ts and started on plain Node, with no TypeScript loader. It must still find
 * every file it reads relative to its sources (migrations, locale catalogues, the service worker, chat
 * media) and load the web app's server build. Needs the web build (npm test builds first; `npm run
 * build` when running this file alone).
 */
const built = existsSync(`${webRoot}build/server/index.js`);
const serverRoot = fileURLToPath(new URL("..", import.meta.url));
// Inside apps/server/build/ (ignored by git), so that the bundle's package imports resolve from node_modules.
const outdir = path.join(serverRoot, "build", `test-${process.pid}`);
const run = promisify(execFile);
// The embedded database whatever the test run uses: this is about finding files, not about PostgreSQL.
const { DATABASE_URL: _database, REDIS_URL: _redis, ...env } = process.env;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

let dataDir: string;
let server: ChildProcess | undefined;
let base: string;
let output = "";

beforeAll(async () => {
  if (!built) return;
  await run(process.execPath, [path.join(serverRoot, "scripts/build.ts"), outdir]);
  dataDir = await mkdtemp(path.join(tmpdir(), "production-build-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [path.join(outdir, "main.js")], {
    env: {
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: path.join(dataDir, "server"),
      SEED_PROFILES: "0",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk) => (output += chunk));
  server.stderr?.on("data", (chunk) => (output += chunk));
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the compiled server exited with ${server.exitCode}:\n${output}`);
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  await rm(outdir, { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe.runIf(built)("the compiled server (npm start)", () => {
  it("migrates, seeds and serves the server-rendered web app on plain Node", async () => {
    const health = await fetch(`${base}/healthz`);
    expect(await health.json()).toMatchObject({ status: "ok", database: "pglite" });
    const page = await fetch(`${base}/`, { headers: { "accept-language": "nl" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html lang="nl"');
  });

  it("finds the files it reads beside its sources: catalogues, service worker, chat media", async () => {
    const login = await fetch(`${base}/api/user.php`, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": "de" },
      body: JSON.stringify({ email: "nobody@example.com", password: "not-the-password" }),
    });
    const error = (await login.json()) as { error: string; message: string };
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(error.message).toBe(t("de", `error.${error.error}`));
    expect(error.message).not.toBe(t("en", `error.${error.error}`));

    const worker = await fetch(`${base}/sw.js`);
    expect(worker.status).toBe(200);
    expect(await worker.text()).toContain("OFFLINE_URL");

    const gift = await fetch(`${base}/media/gifts/cake.svg`);
    expect(gift.status).toBe(200);
    expect(gift.headers.get("content-type")).toBe("image/svg+xml");
    expect(await gift.text()).toContain("<svg");
  });

  it("npm run migrate applies the migrations to an empty database and exits", async () => {
    const { stdout } = await run(process.execPath, [path.join(outdir, "migrate.js")], {
      env: { ...env, DATA_DIR: path.join(dataDir, "migrate") },
    });
    expect(stdout).toMatch(/migrations applied to the PGlite database/);
    expect(existsSync(path.join(dataDir, "migrate", "pglite", "PG_VERSION"))).toBe(true);
  });
});
