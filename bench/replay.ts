/**
 * "A bare node:http handler running the same SQL": records the statements one request of ours sends to
 * PostgreSQL (text, values, prepared-statement name) and in which phases (statements sent while none of
 * the earlier ones had answered run together), then serves a node:http handler that sends exactly
 * those statements in the same phases on its own pool and answers their rows as JSON. Whatever the
 * endpoint does in SQL (the session lookup, the visibility conditions, the page, the photos) the
 * baseline does too, so the ratio measures everything but the SQL: Fastify, hooks, validation, the
 * services, serialisation.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";

interface Statement {
  text: string;
  values: unknown[];
  name?: string;
}

/** Runs `request` once while recording every statement the app's pg pools send, grouped by phase. */
export async function recordPhases(request: () => Promise<unknown>): Promise<Statement[][]> {
  const phases: Statement[][] = [];
  let pending = 0;
  let current: Statement[] | null = null;
  const original = pg.Pool.prototype.query;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    const [config, values] = args as [string | { text: string; values?: unknown[]; name?: string }, unknown[] | undefined];
    const statement: Statement =
      typeof config === "string"
        ? { text: config, values: values ?? [] }
        : { text: config.text, values: config.values ?? values ?? [], ...(config.name ? { name: config.name } : {}) };
    if (!current || pending === 0) {
      current = [];
      phases.push(current);
    }
    current.push(statement);
    pending++;
    const result = (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    const done = () => {
      pending--;
    };
    result.then(done, done);
    return result;
  } as typeof pg.Pool.prototype.query;
  try {
    await request();
  } finally {
    pg.Pool.prototype.query = original;
  }
  return phases;
}

/** A node:http server on loopback that runs `phases` for every request; answers the rows as JSON. */
export async function replayServer(pool: pg.Pool, phases: Statement[][]): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    (async () => {
      const rows: unknown[] = [];
      for (const phase of phases) {
        const results = await Promise.all(phase.map((statement) => pool.query(statement)));
        for (const result of results) rows.push(result.rows);
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(rows));
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}
