import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
/** The one database type every module uses, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = "pglite" | "postgres";

export interface Database {
  db: Db;
  kind: DatabaseKind;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL("../../../drizzle", import.meta.url));

/**
 * Opens the database and applies the committed migrations. Without a URL: PGlite (PostgreSQL in WASM)
 * in `<dataDir>/pglite`, or in memory when dataDir is null (tests). With a URL: a node-postgres pool.
 */
export async function openDatabase(options: {
  url?: string | undefined;
  dataDir: string | null;
  poolSize?: number;
}): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    await migratePg(drizzlePg({ client: pool }), { migrationsFolder });
    return {
      db,
      kind: "postgres",
      ping: async () => void (await pool.query("select 1")),
      close: () => pool.end(),
    };
  }
  let dataPath: string | undefined;
  if (options.dataDir) {
    dataPath = path.join(options.dataDir, "pglite");
    mkdirSync(dataPath, { recursive: true });
  }
  const client = await PGlite.create(dataPath ? { dataDir: dataPath } : {});
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: "pglite",
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}
