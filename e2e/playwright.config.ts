import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "./chromium.ts";

const port = Number(process.env.E2E_PORT ?? 3199);
/** The mail catcher (real SMTP in, JSON out) that the site sends its e-mails to. */
export const mailPorts = { smtp: port - 2, http: port - 1 };
/** The stand-in push service (e2e/push-service.ts) the site may send pushes to over plain http. */
export const pushServicePort = port - 3;
const dataDir = path.join(import.meta.dirname, "../test-results/e2e-data");
/**
 * With a real PostgreSQL and Redis (CI's services pass) a second node serves the same site on port + 1,
 * so that specs can put two members on two nodes (chat across nodes). The embedded PGlite belongs to one
 * process: there the second node is the first one. Workers inherit this variable.
 */
const twoNodes = Boolean(process.env.E2E_DATABASE_URL && process.env.TEST_REDIS_URL);
process.env.E2E_SECOND_NODE_URL = `http://127.0.0.1:${twoNodes ? port + 1 : port}`;
const nodeEnv = (nodePort: number) => ({
  PORT: String(nodePort),
  HOST: "127.0.0.1",
  // The address the browsers use: e-mailed links and the sandbox's way back to the site go there
  // (issue #25: never the request's Host), and the session cookie belongs to this host.
  PUBLIC_URL: `http://127.0.0.1:${nodePort}`,
  DATA_DIR: dataDir,
  SEED_PROFILES: "40",
  SMTP_URL: `smtp://127.0.0.1:${mailPorts.smtp}`,
  PUSH_HTTP_ORIGINS: `http://127.0.0.1:${pushServicePort}`,
  LOG_LEVEL: "warn",
  // The test runner is the only proxy: a spec may give its browsers client addresses of their own
  // (X-Forwarded-For), so that many members can sign up within the per-address rate limit.
  TRUST_PROXY: "127.0.0.1",
  // The sandbox's webhook a few seconds late, as a real provider's may be: the result page shows
  // "Processing your payment" before the outcome arrives, whatever the machine's speed.
  SANDBOX_WEBHOOK_DELAY_MS: "4000",
  ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
  ...(process.env.TEST_REDIS_URL
    ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: process.env.E2E_REDIS_PREFIX ?? `e2e:${process.pid}:` }
    : {}),
});

/**
 * Browser tests drive Debian's Chromium (never a downloaded browser) against the real production
 * server as `npm start` runs it: the compiled server on plain Node (`npm run build` first; decision 034),
 * the built web app, PGlite (or TEST_DATABASE_URL's server), seeded with demo members.
 */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // A safety net, not a speed check: on a busy 2-core box (two Chromiums, the server and axe) several
  // tests took 40-50 s of a 60 s limit (CI of 2026-11-27), one of them past it.
  timeout: 120_000,
  reporter: [["list"], ["json", { outputFile: path.join(import.meta.dirname, "../test-results/e2e.json") }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumFlags,
    },
    trace: "off",
    // The site's service worker stays out of tests that do not ask for it (e2e/app.spec.ts does): it
    // would answer navigations, which page.route() and request counting then no longer see.
    serviceWorkers: "block",
  },
  webServer: [
    {
      command: `tsx e2e/mail-catcher.ts ${mailPorts.smtp} ${mailPorts.http}`,
      cwd: path.join(import.meta.dirname, ".."),
      url: `http://127.0.0.1:${mailPorts.http}/healthz`,
      timeout: 60_000,
      reuseExistingServer: false,
    },
    {
      command: `tsx e2e/push-service.ts ${pushServicePort}`,
      cwd: path.join(import.meta.dirname, ".."),
      url: `http://127.0.0.1:${pushServicePort}/healthz`,
      timeout: 60_000,
      reuseExistingServer: false,
    },
    {
      command: `rm -rf ${dataDir} && node apps/server/build/main.js`,
      cwd: path.join(import.meta.dirname, ".."),
      url: `http://127.0.0.1:${port}/healthz`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: nodeEnv(port),
    },
    ...(twoNodes
      ? [
          {
            // Started after the first node is up: it finds the database migrated and seeded.
            command: "node apps/server/build/main.js",
            cwd: path.join(import.meta.dirname, ".."),
            url: `http://127.0.0.1:${port + 1}/healthz`,
            timeout: 180_000,
            reuseExistingServer: false,
            stdout: "ignore" as const,
            stderr: "pipe" as const,
            env: nodeEnv(port + 1),
          },
        ]
      : []),
  ],
});
