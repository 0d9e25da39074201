import { buildApp, showsDevMailbox } from "./app.ts";
import { defaultOrigin, loadConfigOrExit, paymentsProviderOf } from "./platform/config.ts";
import { seed } from "./seed/seed.ts";

/** The process entry: validated config, database + migrations, seed, then listen; graceful stop on signals. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const dev = process.argv.includes("--dev");
  // `--api-only`: the API, socket and photos without the web app (a node behind a separate front end,
  // and the shutdown test, which needs no web build).
  const web = process.argv.includes("--api-only") ? false : dev ? "development" : "production";
  const app = await buildApp(dev ? { ...config, NODE_ENV: "development" } : config, { web });
  const log = app.server.log;
  if (config.SEED) {
    const result = await seed(app.services, { profiles: config.SEED_PROFILES, log: (msg) => log.info(msg) });
    if (result.created) log.info(`seeded ${result.profiles} demo profiles`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    // Whatever hangs (a request that never ends, a client that keeps its connection, a job's step, the
    // database), the process is gone by the grace period (issue #25: one node ran 12 s past a 10 s grace).
    setTimeout(() => {
      log.error("shutdown grace period over; exiting");
      process.exit(1);
    }, config.SHUTDOWN_GRACE_SECONDS * 1000);
    try {
      await app.close();
      log.info("shut down");
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, "error during shutdown");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  if (!config.SMTP_URL && !showsDevMailbox(config)) {
    log.error(
      `SMTP_URL is not set and the site listens on ${config.HOST}, reachable from other machines: e-mails (activation, password reset) stay in the outbox and reach nobody. Set SMTP_URL to a mail server; only a test site (loopback only, or PAYMENTS_PROVIDER=sandbox) shows them at /dev/mailbox.`,
    );
  }
  if (!config.SMS_URL && !showsDevMailbox(config) && paymentsProviderOf(config)) {
    log.error(
      "SMS_URL is not set on a site reachable from other machines: direct-debit codes stay in the SMS outbox and reach nobody. Set SMS_URL to a gateway.",
    );
  }
  await app.server.listen({ port: config.PORT, host: config.HOST });
  // Durable jobs (erasure of deleted accounts, ...): every node polls; each job runs on one of them.
  app.services.jobs.start();
  const origin = defaultOrigin(config);
  if (showsDevMailbox(config)) log.info(`e-mails go to the outbox: read them at ${origin}/dev/mailbox`);
  // Decision 030: a test site says so; a site without a provider says why nobody can buy credits.
  const provider = paymentsProviderOf(config);
  if (provider === "sandbox") {
    log.warn(`TEST SITE: payments go to the embedded sandbox (${origin}/sandbox/checkout/…), no real payments are taken`);
  } else if (!provider) {
    log.warn("no payment provider: purchases are unavailable (set MOLLIE_API_KEY, or PAYMENTS_PROVIDER=sandbox for a test site)");
  }
  log.info(
    `dating site on ${origin} (database: ${app.services.database.kind}, bus: ${app.services.bus.kind}, node ${process.version})`,
  );
  // In the background, not before listening: profiles saved with a city before positions existed.
  app.services.profiles
    .backfillPositions()
    .then((positioned) => positioned && log.info(`found the city centre of ${positioned} profiles`))
    .catch((err: unknown) => log.error({ err }, "finding city centres failed"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
