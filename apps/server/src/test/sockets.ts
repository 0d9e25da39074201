import type { ServerFrame } from "@app/contract";
import WebSocket from "ws";
import type { TestApp } from "./harness.ts";

/** A WebSocket to a test node's `/ws`, collecting its frames; `next` waits for the first frame that matches. */
export async function connectSocket(app: TestApp, headers: Record<string, string> = {}) {
  const socket = new WebSocket(`${app.url.replace("http", "ws")}/ws`, { headers });
  const frames: ServerFrame[] = [];
  const waiters: Array<() => void> = [];
  socket.on("message", (raw) => {
    frames.push(JSON.parse(raw.toString()) as ServerFrame);
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
    socket.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  const next = async (predicate: (f: ServerFrame) => boolean): Promise<ServerFrame> => {
    for (;;) {
      const found = frames.find(predicate);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { socket, frames, next };
}
