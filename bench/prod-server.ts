/**
 * The production server for benchmarks: builds the web app and the server when a build is missing or
 * older than its sources, then starts the compiled server (as `npm start` does) on a free loopback port
 * over a fresh, seeded DATA_DIR.
 * Used by bench/lighthouse.ts and bench/bundle-size.ts.
 */
import { type ChildProcess, execSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const web = path.join(root, "apps/web");

/** Newest modification time of the files under `dir` (0 when missing). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

export function buildIfNeeded(): void {
  const built = [path.join(web, "build/server/index.js"), path.join(root, "apps/server/build/main.js")];
  const sources = Math.max(
    newest(path.join(web, "app")),
    newest(path.join(root, "apps/server/src")),
    newest(path.join(root, "packages/contract/src")),
    statSync(path.join(web, "vite.config.ts")).mtimeMs,
  );
  if (built.every((file) => existsSync(file) && statSync(file).mtimeMs >= sources)) return;
  console.log("building the web app and the server (npm run build) ...");
  execSync("npm run build", { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the server did not answer /healthz within 180 s");
}

export interface BenchServer {
  base: string;
  stop(): Promise<void>;
}

/** The production server on a free loopback port over a fresh, seeded data directory. */
export async function startServer(name: string): Promise<BenchServer> {
  buildIfNeeded();
  const dataDir = await mkdtemp(path.join(tmpdir(), `bench-${name}-`));
  const port = await freePort();
  const server = spawn(process.execPath, ["--max-semi-space-size=16", "apps/server/build/main.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SEED_PROFILES: "60",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(base, server);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, stop };
}
