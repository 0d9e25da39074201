/**
 * GET /api/settings.php through the whole stack (Fastify, security headers, cookies, site lookup,
 * settings build, serialisation) next to a bare node:http route that serialises the same object, both
 * on loopback in the same run.
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

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

async function measure(url: string) {
  // A short warm-up, then the measured run.
  await autocannon({ url, connections, duration: 2 });
  const result = await autocannon({ url, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

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
const rounds: Record<"base" | "api", Awaited<ReturnType<typeof measure>>[]> = { base: [], api: [] };
for (let round = 0; round < 3; round++) {
  rounds.base.push(await measure(baseline));
  rounds.api.push(await measure(ours));
}
const median = (list: Awaited<ReturnType<typeof measure>>[]) =>
  [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)] ?? { rps: 0, p50: 0, p99: 0 };
const base = median(rounds.base);
const api = median(rounds.api);
const row = (name: string, r: typeof base) =>
  `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms`;
console.log(row("bare node:http (baseline)", base));
console.log(row("GET /api/settings.php", api));
console.log(`ratio settings.php / baseline: ${(api.rps / base.rps).toFixed(2)}`);

await app.close();
bare.close();
await rm(dataDir, { recursive: true, force: true });
