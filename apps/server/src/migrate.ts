import { loadConfigOrExit } from "./platform/config.ts";
import { openDatabase } from "./platform/db/index.ts";

/**
 * `npm run migrate`: applies the committed migrations (apps/server/drizzle) to DATABASE_URL's database
 * (or DATA_DIR's PGlite) and exits, so that a deployment migrates once, as its own step, before nodes
 * of the new version replace the old ones one by one (docs/deploy.md). Every node still migrates at
 * start, under an advisory lock, which finds nothing left to do after this step.
 */
async function migrate(): Promise<void> {
  const config = loadConfigOrExit();
  const started = Date.now();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 1 });
  await database.close();
  console.log(
    `migrations applied to the ${database.kind === "postgres" ? "PostgreSQL" : "PGlite"} database in ${Date.now() - started} ms`,
  );
}

migrate().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
