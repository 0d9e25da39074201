import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { type App, type BuildOptions, buildApp } from "../app.ts";
import { type Bus, openBus, RedisBus } from "../platform/bus.ts";
import { type Config, loadConfig } from "../platform/config.ts";
import { type Database, openDatabase } from "../platform/db/index.ts";
import { seed } from "../seed/seed.ts";

export const usingPostgres = !!process.env.TEST_DATABASE_URL;
export const usingRedis = !!process.env.TEST_REDIS_URL;

export interface TestDatabase extends Database {
  /** Closes and removes the database (PostgreSQL: DROP DATABASE). */
  destroy(): Promise<void>;
  /**
   * Another connection to the same database, as a second node would have: a pool of its own on
   * PostgreSQL (`poolSize` connections, 5 unless asked); on PGlite (one in-process client) the same
   * client, whose close() does nothing.
   */
  connectAgain(options?: { poolSize?: number }): Promise<Database>;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a newly created
 * database on the PostgreSQL server named by TEST_DATABASE_URL (dropped again by destroy()).
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const database = await openDatabase({ dataDir: null });
    return { ...database, destroy: () => database.close(), connectAgain: async () => ({ ...database, close: async () => {} }) };
  }
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), dataDir: null, poolSize: 5 });
  return {
    ...database,
    connectAgain: (options = {}) => openDatabase({ url: url.toString(), dataDir: null, poolSize: options.poolSize ?? 5 }),
    destroy: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** A bus for tests: Redis with a unique key prefix when TEST_REDIS_URL is set, else in-process. */
export function openTestBus(prefix = `test:${randomBytes(6).toString("hex")}:`): Promise<Bus> {
  return openBus({ url: process.env.TEST_REDIS_URL, prefix });
}

export interface TestApp extends App {
  dataDir: string;
  url: string;
  stop(): Promise<void>;
}

/**
 * A real server on 127.0.0.1 (random port) over the given database, without the web app unless asked.
 * Each app gets its own data directory for files.
 */
export interface TestAppOptions {
  env?: Record<string, string>;
  bus?: Bus;
  web?: BuildOptions["web"];
  listen?: boolean;
  providerHooks?: BuildOptions["providerHooks"];
}

export async function startTestApp(database: Database, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "dating-test-"));
  // Redis keys (rate-limit counters) under a prefix of this app alone, removed again on stop.
  const redisPrefix = `test:${randomBytes(6).toString("hex")}:`;
  const config: Config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: "0",
    REDIS_PREFIX: redisPrefix,
    ...options.env,
  });
  const bus = options.bus ?? (await openTestBus());
  const app = await buildApp(config, {
    web: options.web ?? false,
    database,
    bus,
    ...(options.providerHooks ? { providerHooks: options.providerHooks } : {}),
  });
  let url = "";
  if (options.listen !== false) {
    await app.server.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.server.address();
    if (address && typeof address === "object") url = `http://127.0.0.1:${address.port}`;
  }
  return {
    ...app,
    dataDir,
    url,
    stop: async () => {
      if (app.services.bus instanceof RedisBus) {
        const keys = await app.services.bus.client.keys(`${redisPrefix}*`);
        if (keys.length) await app.services.bus.client.del(...keys);
      }
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test file's app and its database, filled in by `useTestApp`'s beforeAll. */
export interface TestContext {
  app: TestApp;
  database: TestDatabase;
}

/**
 * One app on a fresh database for the enclosing file or describe: registers the beforeAll that opens
 * the database, starts the app and seeds it, then hands both to `ready` (for the file's own variables
 * and set-up), and the afterAll that stops and removes them. Read the returned context inside tests.
 */
export function useTestApp(
  options: Omit<TestAppOptions, "env"> & {
    /** The app's environment; a function when it names something an earlier beforeAll started. */
    env?: Record<string, string> | (() => Record<string, string>);
    /** Seeds the site and demo accounts with this many demo profiles; without it nothing is seeded. */
    seed?: { profiles: number };
    /** The beforeAll's timeout, for seeds larger than the default hook timeout allows. */
    timeout?: number;
  } = {},
  ready?: (context: TestContext) => unknown,
): TestContext {
  const { env, seed: seeding, timeout, ...start } = options;
  const context = {} as TestContext;
  beforeAll(async () => {
    context.database = await openTestDatabase();
    context.app = await startTestApp(context.database, {
      ...start,
      ...(env ? { env: typeof env === "function" ? env() : env } : {}),
    });
    if (seeding) await seed(context.app.services, seeding);
    await ready?.(context);
  }, timeout);
  afterAll(async () => {
    await context.app?.stop();
    await context.database?.destroy();
  });
  return context;
}
