import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import nl from "../../../../web/app/i18n/locales/nl.json" with { type: "json" };
import { seed } from "../../seed/seed.ts";
import { createMember, sqlRows, type TestMember } from "../../test/factories.ts";
import {
  openTestDatabase,
  startTestApp,
  type TestApp,
  type TestDatabase,
  useTestApp,
  usingPostgres,
  usingRedis,
} from "../../test/harness.ts";
import { startTcpProxy, type TcpProxy } from "../../test/tcp-proxy.ts";
import { type Database, openDatabase } from "../db/index.ts";

/** Issue #25: `/readyz` for a load balancer, and a 503 with a translated message while the database is away. */
describe("readiness", () => {
  let app: TestApp;

  useTestApp({ listen: false }, (env) => {
    app = env.app;
  });

  it("says the node is ready, with the state of each dependency; /healthz stays the liveness check", async () => {
    const ready = await app.server.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers["cache-control"]).toBe("no-store");
    expect(ready.json()).toEqual({ status: "ready", database: "up", redis: usingRedis ? "up" : "none" });
    expect((await app.server.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });
});

const noPostgres = usingPostgres ? null : "needs TEST_DATABASE_URL (a PostgreSQL server to cut the node off from)";
if (noPostgres) console.warn(`[readiness.test] the database outage test is skipped: ${noPostgres}`);

describe.skipIf(noPostgres)("a database outage", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let throughProxy: Database;
  let app: TestApp;
  let member: TestMember;
  let other: TestMember;

  beforeAll(async () => {
    database = await openTestDatabase();
    // The node reaches this file's database through a proxy the test can cut.
    const [row] = await sqlRows<{ name: string }>(database.db, sql`select current_database() as name`);
    const target = new URL(process.env.TEST_DATABASE_URL ?? "");
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(target);
    url.host = `127.0.0.1:${proxy.port}`;
    url.pathname = `/${row?.name}`;
    throughProxy = await openDatabase({ url: url.toString(), dataDir: null, poolSize: 3 });
    app = await startTestApp(throughProxy, { listen: false });
    await seed(app.services, { profiles: 0 });
    member = await createMember(app, { activate: true, gender: "female", credits: 100, locale: "nl" });
    other = await createMember(app, { activate: true, gender: "male" });
  }, 120_000);

  afterAll(async () => {
    await proxy?.restore();
    await app?.stop();
    await throughProxy?.close();
    await proxy?.close();
    await database?.destroy();
  });

  it("answers /readyz 503 and a write 503 with a translated message, fast, and recovers by itself", async () => {
    await proxy.cut();
    const started = performance.now();
    const ready = await app.server.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: "unavailable", database: "down" });

    const write = await member.client.post("/api/message.php", {
      profile_id: other.profileId,
      client_id: randomUUID(),
      text: "Hallo",
    });
    expect(write.statusCode, write.body).toBe(503);
    expect(write.json()).toEqual({ error: "service_unavailable", message: nl["error.service_unavailable"] });
    expect(performance.now() - started).toBeLessThan(5_000);

    await proxy.restore();
    expect((await app.server.inject({ method: "GET", url: "/readyz" })).json()).toMatchObject({
      status: "ready",
      database: "up",
    });
    const again = await member.client.post("/api/message.php", {
      profile_id: other.profileId,
      client_id: randomUUID(),
      text: "Hallo",
    });
    expect(again.statusCode, again.body).toBe(200);
  }, 60_000);
});
