/**
 * The setup of the search benchmarks (bench/search.ts, bench/explain-search.ts): a fresh database with the
 * app on it, members in bulk and one bench member.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { type App, buildApp } from "../apps/server/src/app.ts";
import { loadConfig } from "../apps/server/src/platform/config.ts";
import { type Database, openDatabase } from "../apps/server/src/platform/db/index.ts";
import { seed } from "../apps/server/src/seed/seed.ts";

export interface BenchApp {
  /** URL of the new database. */
  url: string;
  database: Database;
  /** The API (no web app) on that database: migrated, default site seeded, not listening. */
  app: App;
  /** Closes everything and drops the database (unless `keep`). */
  close(options?: { keep?: boolean }): Promise<void>;
}

/**
 * A new database `<prefix>_<random>` on the server of `adminUrl`, with the app's schema and default site.
 * `synchronousCommit: "off"` makes every session on it commit without waiting for the WAL to reach the
 * disk (set on the database before anything connects), for a bench that compares servers, not disks.
 */
export async function openBenchApp(
  adminUrl: string,
  prefix: string,
  options: { synchronousCommit?: "on" | "off" } = {},
): Promise<BenchApp> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  if (options.synchronousCommit)
    await admin.query(`alter database ${name} set synchronous_commit = ${options.synchronousCommit}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  const close = async ({ keep = false } = {}) => {
    if (keep) console.log(`kept database ${name}`);
    else await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const database = await openDatabase({ url: url.toString(), dataDir: null, poolSize: 10 });
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", HOST: "127.0.0.1", DATABASE_URL: url.toString() });
    const app = await buildApp(config, { web: false, database });
    await seed(app.services, { profiles: 0 });
    return {
      url: url.toString(),
      database,
      app,
      close: async (options) => {
        await app.close();
        await database.close();
        await close(options);
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

const COUNTRIES = ["NL", "BE", "DE", "AT", "CH", "FR", "IT", "ES", "PL", "GB", "IE", "US", "CA", "AU", "NZ"];

/**
 * `total` fictional members over 15 countries, 2% invisible, 60% with a main photo; then vacuumed. Who has a
 * photo is drawn by a hash of the id: `p.id % 10` followed country and gender (both `u.id` modulo 15 and 2),
 * so at 1M every German woman had a photo or none, depending on how many rows came before.
 */
export async function insertBenchProfiles(client: pg.Client, total: number): Promise<void> {
  await client.query(`
    insert into users (status, fictional, language, invisible)
    select 'active', true, 'en', (g % 50 = 0) from generate_series(1, ${total}) g;
    insert into profiles (user_id, status, name, gender, sexuality, birth_date, country, region, fictional, created_at)
    select u.id, 'active', 'Member ' || u.id, (case when u.id % 2 = 0 then 'female' else 'male' end)::gender, 'hetero',
           date '1950-01-01' + ((u.id::bigint * 7919) % 17000)::int, (array['${COUNTRIES.join("','")}'])[1 + u.id % ${COUNTRIES.length}],
           null, true, now() - (u.id % 1000) * interval '1 hour'
    from users u where u.email is null and u.fictional;
    insert into photos (profile_id, filename, thumb_filename, status, is_main, width, height)
    select p.id, 'photos/' || md5(p.id::text) || '.jpg', 'photos/' || md5(p.id::text) || '-t.jpg', 'active', true, 960, 1200
    from profiles p where abs(hashint4(p.id)) % 10 < 6;
  `);
  // A table in use has been vacuumed (autovacuum): its visibility map lets index-only scans skip the heap.
  await client.query("vacuum analyze");
}

/** A member in Berlin with a session, who blocked 10 members and was blocked by 10; answers their cookie. */
export async function createBenchMember(server: FastifyInstance, client: pg.Client): Promise<string> {
  const signup = await server.inject({
    method: "POST",
    url: "/api/signup.php",
    headers: { "content-type": "application/json" },
    payload: JSON.stringify({
      email: "bench@example.org",
      name: "Bench",
      password: "correct horse battery",
      date_of_birth: "1990-01-01",
      gender: "male",
      seeking: "female",
    }),
  });
  await client.query(`
    update profiles set status = 'active', country = 'DE', region = 'DE-BE', city = 'Berlin', latitude = 52.52, longitude = 13.4
      where user_id = (select id from users where email = 'bench@example.org');
    update profiles set latitude = 48 + (id % 700) / 100.0, longitude = 6 + (id % 900) / 100.0 where fictional;
    insert into blocks (blocker_id, blocked_id)
      select (select id from profiles where name = 'Bench'), id from profiles where fictional and country = 'DE' limit 10;
    insert into blocks (blocker_id, blocked_id)
      select id, (select id from profiles where name = 'Bench') from profiles where fictional and country = 'DE' offset 10 limit 10;
  `);
  // The positions above rewrote every profile row: vacuum again, as autovacuum would.
  await client.query("vacuum analyze");
  return String(signup.headers["set-cookie"]).split(";")[0] ?? "";
}
