/**
 * GET /api/settings.php through the whole stack (Fastify, security headers, cookies, locale, site lookup,
 * the answer kept serialised per site, host, language and country) next to a bare node:http route that
 * serialises the same object with JSON.stringify on every request, both on loopback in the same run.
 * Prints req/s and latency of each (the median of three alternating rounds) and their ratio. Stops by
 * itself (bounded duration).
 *
 *   npm run bench:http            (BENCH_SECONDS=10 BENCH_CONNECTIONS=50 to change the load)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { buildApp } from "../apps/server/src/app.ts";
import { loadConfig } from "../apps/server/src/platform/config.ts";
import { seed } from "../apps/server/src/seed/seed.ts";
import { formatRow, type Measured, measure, median } from "./load.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

const dataDir = await mkdtemp(path.join(tmpdir(), "bench-http-"));
const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", HOST: "127.0.0.1" }), { web: false });
await seed(app.services, { profiles: 0 });
await app.server.listen({ host: "127.0.0.1", port: 0 });
const ours = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}/api/settings.php`;

const sample = (await app.server.inject({ url: "/api/settings.php" })).body;
const sampleObject: unknown = JSON.parse(sample);
const bare = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(sampleObject));
});
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
const baseline = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

console.log(
  `node ${process.version}, ${connections} connections, 3 rounds of ${seconds} s per target, body ${sample.length} bytes`,
);
// Rounds alternate between the targets (the machine may be shared): each target's median round counts.
// The load comes from a worker thread, off the event loop of the servers it measures.
const rounds: Record<"base" | "api", Measured[]> = { base: [], api: [] };
for (let round = 0; round < 3; round++) {
  rounds.base.push(await measure(autocannon, baseline, { connections, seconds }));
  rounds.api.push(await measure(autocannon, ours, { connections, seconds }));
}
const base = median(rounds.base);
const api = median(rounds.api);
console.log(formatRow("bare node:http (baseline)", base));
console.log(formatRow("GET /api/settings.php", api));
console.log(`ratio settings.php / baseline: ${(api.rps / base.rps).toFixed(2)}   (p99 ${api.p99} ms, baseline ${base.p99} ms)`);

await app.close();
bare.close();
await rm(dataDir, { recursive: true, force: true });
