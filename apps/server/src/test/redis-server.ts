import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createServer, Socket } from "node:net";

/** The redis-server binary the outage tests start (REDIS_SERVER_BIN, else the Debian/Ubuntu path CI has too). */
const BINARY = process.env.REDIS_SERVER_BIN ?? "/usr/bin/redis-server";

/** Why a test that needs its own Redis cannot run here, or null when it can. */
export function redisServerMissing(): string | null {
  try {
    accessSync(BINARY, constants.X_OK);
    return null;
  } catch {
    return `no redis-server binary at ${BINARY} (install redis-server or set REDIS_SERVER_BIN): the Redis outage tests are skipped`;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== "object") throw new Error("no port");
  return address.port;
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
  });
}

export interface TestRedisServer {
  url: string;
  /** Kills the server as a crash would (SIGKILL), and waits until it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing on disk), and waits until it answers. */
  start(): Promise<void>;
  /** Stops it for good. */
  close(): Promise<void>;
}

/**
 * A Redis server of the test's own on a free port, which the test may stop and start: the outage tests
 * never stop the Redis other tests share (TEST_REDIS_URL).
 */
export async function startRedisServer(): Promise<TestRedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const process = spawn(BINARY, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    child = process;
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (process.exitCode !== null) throw new Error(`redis-server exited with ${process.exitCode}`);
      if (Date.now() > deadline) throw new Error("redis-server did not answer within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const process = child;
    child = null;
    if (!process || process.exitCode !== null || process.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => process.once("exit", () => resolve()));
    process.kill("SIGKILL");
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start, close: stop };
}
