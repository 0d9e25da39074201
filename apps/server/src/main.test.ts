import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { WS_CLOSE } from "@app/contract";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";

// Graceful shutdown (issue #25): the real entry point as a child process, sent SIGTERM.

const root = path.resolve(import.meta.dirname, "../../..");
const started: Array<{ child: ChildProcess; dataDir: string }> = [];

afterAll(async () => {
  for (const { child, dataDir } of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  }
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** `main.ts` on a free port over an empty data directory, resolved once it listens. */
async function startServer(graceSeconds: number) {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), "dating-shutdown-"));
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts", "--api-only"], {
    cwd: root,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      SEED: "false",
      LOG_LEVEL: "info",
      NODE_ENV: "production",
      SHUTDOWN_GRACE_SECONDS: String(graceSeconds),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push({ child, dataDir });
  let output = "";
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once("exit", (code) => resolve({ code, at: performance.now() })),
  );
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("dating site on")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then(() => reject(new Error(`the server exited before listening:\n${output}`)));
  });
  return { port, child, exited, output: () => output };
}

/** Resolves once a new connection to `port` is refused (the server stopped listening). */
async function stoppedListening(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = connect(port, "127.0.0.1");
      probe.once("connect", () => {
        probe.destroy();
        resolve(false);
      });
      probe.once("error", () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An HTTP request whose body is sent in part only: in flight until `finish` sends the rest. */
async function requestInFlight(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  let answer = "";
  socket.on("data", (chunk) => {
    answer += chunk.toString();
  });
  const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const body = `{}${" ".repeat(18)}`;
  socket.write(
    `POST /api/logout.php HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  return {
    finish: async () => {
      socket.write(body.slice(5));
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      return answer;
    },
    destroy: () => socket.destroy(),
  };
}

// Each test starts the server (tsx, the migrations): seconds on a quiet machine, more on a busy one.
describe("graceful shutdown (SIGTERM)", () => {
  it("closes sockets with 1012, finishes the request in flight and exits with 0 within the grace period", async () => {
    const grace = 6;
    const server = await startServer(grace);
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
    await new Promise<void>((resolve, reject) => {
      socket.once("message", () => resolve());
      socket.once("error", reject);
    });
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    const inFlight = await requestInFlight(server.port);
    // Let the server take the request's head before the signal.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sentAt = performance.now();
    server.child.kill("SIGTERM");
    expect(await closed).toBe(WS_CLOSE.serviceRestart);
    // The rest of the body once the node no longer listens: the request was in flight all along.
    await stoppedListening(server.port);
    const answer = await inFlight.finish();
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const exit = await server.exited;
    expect(exit.code, server.output()).toBe(0);
    expect(exit.at - sentAt).toBeLessThan(grace * 1000);
  }, 120_000);

  it("exits by the grace period when a request never finishes", async () => {
    const grace = 2;
    const server = await startServer(grace);
    const hanging = await requestInFlight(server.port);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sentAt = performance.now();
    server.child.kill("SIGTERM");
    const exit = await server.exited;
    hanging.destroy();
    expect(exit.at - sentAt).toBeLessThan((grace + 1) * 1000);
    expect(exit.at - sentAt).toBeGreaterThanOrEqual(grace * 1000 - 100);
  }, 120_000);
});
