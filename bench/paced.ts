/**
 * Open-loop load at a steady rate: requests arrive at random (Poisson) times, `rate` per second on
 * average, whether or not earlier ones have been answered, over a keep-alive pool of `connections`
 * (requests wait for a free connection, as behind a proxy). Latency counts from the moment a request
 * was due, so a late timer or a full pool is the server's latency too (no coordinated omission).
 *
 * autocannon's `overallRate` does not do this: each connection sends its share of a second as fast as
 * it is answered at the start of every second, then waits, so "200 req/s over 20 connections" is a
 * saturated burst of 200 followed by idleness, and its p99 is the saturated one.
 *
 * Runs in a worker thread, so the load does not share the event loop of the servers it measures.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { Pool } from "undici";
import type { Measured } from "./load.ts";

export interface PacedOptions {
  rate: number;
  seconds: number;
  connections: number;
  headers?: Record<string, string>;
}

interface Job extends PacedOptions {
  url: string;
}

/** Loads `url` at `rate` req/s for a 2 s warm-up, then `seconds` measured; answers req/s, p50 and p99. */
export function measurePaced(url: string, options: PacedOptions): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { ...options, url } satisfies Job });
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => code !== 0 && reject(new Error(`paced load exited with ${code}`)));
  });
}

/** Value at quantile `q` of sorted `values`. */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);

async function run(job: Job): Promise<Measured> {
  const target = new URL(job.url);
  const pool = new Pool(target.origin, { connections: job.connections, pipelining: 1 });
  const path = target.pathname + target.search;
  const latencies: number[] = [];
  let failed = 0;
  const load = async (seconds: number, record: boolean) => {
    const start = performance.now();
    const end = start + seconds * 1000;
    const pending: Promise<void>[] = [];
    let due = start;
    while (due < end) {
      // Exponential gaps: independent arrivals at `rate` per second on average.
      due += (-Math.log(1 - Math.random()) / job.rate) * 1000;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const scheduled = due;
      pending.push(
        pool.request({ path, method: "GET", headers: job.headers ?? {} }).then(
          async (response) => {
            await response.body.dump();
            if (response.statusCode !== 200) failed++;
            if (record) latencies.push(performance.now() - scheduled);
          },
          () => void failed++,
        ),
      );
    }
    await Promise.all(pending);
    return (performance.now() - start) / 1000;
  };
  await load(2, false);
  const elapsed = await load(job.seconds, true);
  await pool.close();
  if (failed) throw new Error(`${job.url}: ${failed} requests failed`);
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p50: Math.round(quantile(latencies, 0.5)),
    p99: Math.round(quantile(latencies, 0.99)),
  };
}

if (!isMainThread && parentPort && (workerData as Job | undefined)?.url) {
  parentPort.postMessage(await run(workerData as Job));
}
