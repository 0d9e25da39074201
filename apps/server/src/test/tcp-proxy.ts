import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  /** host:port to connect to instead of the target. */
  port: number;
  /** Cuts every connection and refuses new ones, as a stopped server would (ECONNREFUSED). */
  cut(): Promise<void>;
  /** Accepts connections again (on the same port). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a real server (PostgreSQL), which a test can cut and restore: an outage of
 * the server as the node sees it, without stopping the server other tests share.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = async () => {
    const next = createServer((client) => {
      const upstream = connect(target.port, target.host);
      open.add(client);
      open.add(upstream);
      const end = () => {
        client.destroy();
        upstream.destroy();
        open.delete(client);
        open.delete(upstream);
      };
      client.on("error", end).on("close", end);
      upstream.on("error", end).on("close", end);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => next.listen(port, "127.0.0.1", resolve));
    const address = next.address();
    if (address && typeof address === "object") port = address.port;
    server = next;
  };
  const cut = async () => {
    const current = server;
    server = null;
    for (const socket of open) socket.destroy();
    open.clear();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  await listen();
  return {
    port,
    cut,
    restore: async () => {
      if (!server) await listen();
    },
    close: cut,
  };
}
