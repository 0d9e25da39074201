/** Load runs for the benches: autocannon from a worker thread, medians of alternating rounds, rows to print. */
import type autocannon from "autocannon";

/** BENCH_LOAD_IN_PROCESS=1 runs autocannon on the main thread, as the benches did before 2026-11-22. */
const inProcess = process.env.BENCH_LOAD_IN_PROCESS === "1";

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
}

/**
 * Loads `url` with autocannon in a worker thread, so the load generator does not share the event loop
 * of the servers it measures: a warm-up, then the measured run. `rate` paces the requests (req/s over
 * all connections) instead of sending as fast as the server answers.
 */
export async function measure(
  run: typeof autocannon,
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string>; rate?: number },
): Promise<Measured> {
  const base = { url, connections: options.connections, headers: options.headers ?? {}, ...(inProcess ? {} : { workers: 1 }) };
  const paced = options.rate ? { overallRate: options.rate } : {};
  await run({ ...base, ...paced, duration: 2 });
  const result = await run({ ...base, ...paced, duration: options.seconds });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export const formatRow = (label: string, r: Measured) =>
  `${label.padEnd(38)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms`;

/** The round with the median req/s. */
export const median = (list: Measured[]): Measured =>
  [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)] ?? { rps: 0, p50: 0, p99: 0 };
