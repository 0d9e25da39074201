/**
 * Issue #25, hole 4: a deeply nested JSON body (`[`×8000 `]`×8000, 16 KB, no login) must be refused
 * cheaply. Posts one such body, then four at once while a fifth client asks /healthz, and prints the
 * status and wall time of each (five one after another, then the four): before the input rule (decision 032) one cost up to 2.7 s and answered
 * 500; the four stalled the node. Stops by itself.
 *
 *   npx tsx bench/nested-json.ts          (NESTED_DEPTH=8000 to change the depth)
 */
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { buildApp } from "../apps/server/src/app.ts";
import { loadConfig } from "../apps/server/src/platform/config.ts";

const depth = Number(process.env.NESTED_DEPTH ?? 8000);
const body = "[".repeat(depth) + "]".repeat(depth);

const dataDir = await mkdtemp(path.join(tmpdir(), "bench-nested-"));
const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", HOST: "127.0.0.1" }), { web: false });
await app.server.listen({ host: "127.0.0.1", port: 0 });
const origin = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;

const timed = async (url: string, init?: RequestInit) => {
  // The server runs in this process: the longest event-loop stall during the four is what every other
  // request on the node waited at most.
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return { status: response.status, ms: Math.round(performance.now() - started) };
};
const post = () => timed(`${origin}/api/user.php`, { method: "POST", headers: { "content-type": "application/json" }, body });

console.log(`node ${process.version}, body ${body.length} bytes (depth ${depth}), POST /api/user.php`);
await timed(`${origin}/healthz`); // warm up
const singles = [];
for (let i = 0; i < 5; i++) singles.push(await post());
console.log(`one at a time: ${singles.map((r) => `${r.status} in ${r.ms} ms`).join(", ")}`);
// The server runs in this process: the longest event-loop stall during the four is what every other
// request on the node waited at most.
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const started = performance.now();
const [health, ...four] = await Promise.all([
  new Promise<{ status: number; ms: number }>((resolve) => setTimeout(() => resolve(timed(`${origin}/healthz`)), 5)),
  post(),
  post(),
  post(),
  post(),
]);
console.log(
  `four at once:  ${four.map((r) => `${r.status} in ${r.ms} ms`).join(", ")}; all done in ${Math.round(performance.now() - started)} ms`,
);
loop.disable();
console.log(
  `/healthz asked meanwhile: ${health?.status} in ${health?.ms} ms; longest event-loop stall ${Math.round(loop.max / 1e6)} ms`,
);

await app.close();
await rm(dataDir, { recursive: true, force: true });
