#!/usr/bin/env node
// The README's test command: every suite (contract, server, web, browser), one summary line.
// Uses PGlite and the in-process bus unless TEST_DATABASE_URL / TEST_REDIS_URL name real servers.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const results = path.join(root, "test-results");
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const env = { ...process.env, PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}` };

const database = process.env.TEST_DATABASE_URL ? "PostgreSQL (TEST_DATABASE_URL)" : "PGlite (embedded)";
const bus = process.env.TEST_REDIS_URL ? "Redis (TEST_REDIS_URL)" : "in-process bus";
console.log(`test run: node ${process.version}; database: ${database}; bus: ${bus}`);

const run = (command, args, extraEnv = {}) =>
  spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } }).status ?? 1;

const counts = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

// 0. The production web build: the server's page tests and the browser suite run against it.
const built = run("npm", ["run", "build", "--silent"]) === 0;
if (!built) {
  counts.failed += 1;
  problems.push("the web build failed");
}

// 1. Unit and integration suites (vitest projects: contract, server, web).
const vitestStatus = run(bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile=${path.join(results, "vitest.json")}`,
]);
const vitestReport = path.join(results, "vitest.json");
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, "utf8"));
  counts.passed += report.numPassedTests;
  counts.failed += report.numFailedTests;
  counts.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  if (report.numFailedTestSuites > 0 && report.numFailedTests === 0) {
    counts.failed += report.numFailedTestSuites;
    problems.push("a vitest file failed to load");
  } else if (vitestStatus !== 0 && report.numFailedTests === 0) {
    // Unhandled errors fail the run without failing a test: count them as a failure.
    counts.failed += 1;
    problems.push(`vitest exited with ${vitestStatus} (unhandled errors)`);
  }
} else {
  counts.failed += 1;
  problems.push(`vitest produced no report (exit ${vitestStatus})`);
}

// 2. Browser suite against the production build.
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  counts.failed += 1;
  problems.push(`no Chromium at ${chromium}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`);
} else if (built) {
  let e2eDatabase = null;
  let pg = null;
  if (process.env.TEST_DATABASE_URL) {
    pg = (await import("pg")).default;
    e2eDatabase = `e2e_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${e2eDatabase}`);
    await admin.end();
  }
  const e2eEnv = { E2E_REDIS_PREFIX: `e2e:${process.pid}:` };
  if (e2eDatabase) {
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${e2eDatabase}`;
    e2eEnv.E2E_DATABASE_URL = url.toString();
  }
  const playwrightStatus = run(bin("playwright"), ["test", "-c", "e2e/playwright.config.ts"], e2eEnv);
  if (process.env.TEST_REDIS_URL) {
    // The browser run's rate-limit counters: remove them, as every test cleans up after itself.
    const { Redis } = await import("ioredis");
    const redis = new Redis(process.env.TEST_REDIS_URL);
    const keys = await redis.keys(`${e2eEnv.E2E_REDIS_PREFIX}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
  if (e2eDatabase && pg) {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${e2eDatabase} with (force)`);
    await admin.end();
  }
  const e2eReport = path.join(results, "e2e.json");
  if (existsSync(e2eReport)) {
    const { stats } = JSON.parse(readFileSync(e2eReport, "utf8"));
    counts.passed += stats.expected + (stats.flaky ?? 0);
    counts.failed += stats.unexpected;
    counts.skipped += stats.skipped;
    if (stats.expected + stats.unexpected === 0) {
      counts.failed += 1;
      problems.push("the browser suite ran no test");
    } else if (playwrightStatus !== 0 && stats.unexpected === 0) {
      counts.failed += 1;
      problems.push(`playwright exited with ${playwrightStatus} (errors outside tests)`);
    }
  } else {
    counts.failed += 1;
    problems.push("the browser suite produced no report");
  }
}

for (const problem of problems) console.error(`test run problem: ${problem}`);
console.log(`test run used database: ${database}; bus: ${bus}`);
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(counts.failed > 0 ? 1 : 0);
