import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";

/**
 * The one database type every module uses, whichever driver is underneath. Queries are built with
 * Drizzle's query builder over each module's own tables; the relational `db.query` API (which would
 * need every module's schema here) is not used.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type DatabaseKind = "pglite" | "postgres";
/** An open transaction (what `db.transaction` hands its callback). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/**
 * The one handle type that queries take: the database or an open transaction, so a write can join
 * the caller's transaction (a message and its credit debit commit together).
 */
export type DbOrTx = Pick<Db, "select" | "insert" | "update" | "delete" | "execute">;

/** The rows of a raw statement: both drivers answer `db.execute` with `{ rows }`. */
export async function rowsOf<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export interface Database {
  db: Db;
  kind: DatabaseKind;
  /** Runs `work` while holding a database-wide lock (PostgreSQL advisory lock; PGlite has one client). */
  withLock<T>(key: number, work: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The planner's cost of a random page read. PostgreSQL's default (4) assumes spinning disks and makes
 * it prefer hash joins with full scans over index lookups; on SSDs or a cached working set 1.1 is the
 * usual setting. Measured by `npm run bench:search`: the member search at 100k profiles went from
 * about 65 ms to 6 ms per request (hash semi-joins over users and photos became index lookups).
 */
const RANDOM_PAGE_COST = 1.1;

/** Advisory lock keys (arbitrary constants) serialising start-up work across nodes. */
const MIGRATION_LOCK = 7_201_001;
export const SEED_LOCK = 7_201_002;

const migrationsFolder = fileURLToPath(new URL("../../../drizzle", import.meta.url));

/**
 * Opens the database and applies the committed migrations. Without a URL: PGlite (PostgreSQL in WASM)
 * in `<dataDir>/pglite`, or in memory when dataDir is null (tests). With a URL: a node-postgres pool.
 */
export async function openDatabase(options: {
  url?: string | undefined;
  dataDir: string | null;
  poolSize?: number;
  onError?: (error: Error) => void;
}): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Connections stay open once made (pg-pool closes idle ones above `min` after 10 s): a new one
      // is a new PostgreSQL backend with cold caches that prepares every statement again, and a burst
      // after a quiet spell paid that on its first sends (bench:chat: 30 sends over 60 ms at the start
      // of a 400/s step in 2 of 3 runs, none with the pool kept; decision 020, "Write cost").
      min: options.poolSize ?? 10,
      options: `-c random_page_cost=${RANDOM_PAGE_COST}`,
      // A server that does not answer (a network partition rather than a refused connection) fails a
      // request with 503 after this instead of holding it for ever (issue #25, decision 031).
      connectionTimeoutMillis: 5_000,
    });
    // An idle client whose connection drops (server restart, failover) emits 'error'; without a
    // listener that would end the process. The pool discards the client and opens a new one on demand.
    pool.on("error", (error) => options.onError?.(error));
    // The pool listens on idle clients only: a checked-out one (inside a transaction, between two of
    // its statements) whose connection is terminated (a restart, a failover, pg_terminate_backend)
    // emitted 'error' with no listener and ended the process (issue #25, the fault test). Its next
    // statement fails instead (503), and the pool discards it on release.
    pool.on("connect", (client) => client.on("error", (error) => options.onError?.(error)));
    const db = drizzlePg({ client: pool }) as unknown as Db;
    // Several nodes may start at once on a fresh database: one migrates, the others wait.
    const lock = await pool.connect();
    try {
      await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await migratePg(drizzlePg({ client: lock }), { migrationsFolder });
    } finally {
      await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
      lock.release();
    }
    return {
      db,
      kind: "postgres",
      ping: async () => void (await pool.query("select 1")),
      close: () => pool.end(),
      withLock: async (key, work) => {
        const client = await pool.connect();
        try {
          await client.query("select pg_advisory_lock($1)", [key]);
          return await work();
        } finally {
          await client.query("select pg_advisory_unlock($1)", [key]).catch(() => undefined);
          client.release();
        }
      },
    };
  }
  let dataPath: string | undefined;
  if (options.dataDir) {
    dataPath = path.join(options.dataDir, "pglite");
    mkdirSync(dataPath, { recursive: true });
  }
  const client = await PGlite.create(dataPath ? { dataDir: dataPath } : {});
  await client.exec(`set random_page_cost = ${RANDOM_PAGE_COST}`);
  const db = drizzlePglite({ client });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: "pglite",
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
    withLock: (_key, work) => work(),
  };
}
