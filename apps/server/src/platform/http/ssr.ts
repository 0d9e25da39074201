import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { SsrServices } from "@app/contract";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { AppError } from "../errors.ts";

/** apps/web: its production build, and its root for Vite in development. */
export const webRoot = fileURLToPath(new URL("../../../../web/", import.meta.url));

export interface SsrOptions {
  mode: "development" | "production" | "test";
  bodyLimit: number;
  /** Builds the per-request services handed to loaders. */
  services(request: FastifyRequest, nonce: string): SsrServices;
}

type EntryWithContext = { createLoadContext(services: SsrServices): RouterContextProvider };

/**
 * Hosts React Router's server rendering inside Fastify: every path no other route claimed becomes a
 * Fetch Request for the web app. Production serves the built client assets (hashed, immutable) and
 * the server build; development mounts Vite in middleware mode with hot reload.
 */
export async function registerSsr(app: FastifyInstance, options: SsrOptions): Promise<void> {
  let loadBuild: () => Promise<ServerBuild>;
  if (options.mode === "development") {
    const { createServer } = await import("vite");
    const middie = (await import("@fastify/middie")).default;
    const vite = await createServer({
      root: webRoot,
      configFile: `${webRoot}vite.config.ts`,
      server: { middlewareMode: true, hmr: { port: 24678 } },
      appType: "custom",
    });
    await app.register(middie);
    app.use(vite.middlewares);
    app.addHook("onClose", () => vite.close());
    loadBuild = () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  } else {
    const buildUrl = new URL("build/server/index.js", `file://${webRoot}`);
    const build = (await import(buildUrl.href)) as ServerBuild;
    loadBuild = async () => build;
    await app.register(fastifyStatic, {
      root: `${webRoot}build/client`,
      prefix: "/",
      wildcard: false,
      index: false,
      // Built files have `.br`/`.gz` siblings made at build time (apps/web/scripts/precompress.ts): sent
      // as they are to a browser that accepts them, never compressed per request.
      preCompressed: true,
      globIgnore: ["**/*.br", "**/*.gz"],
      setHeaders: (reply: FastifyReply, filePath: string) => {
        const immutable = filePath.includes("/assets/");
        reply.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600");
      },
    } as Parameters<typeof fastifyStatic>[1]);
  }
  const handle = createRequestHandler(loadBuild, options.mode === "development" ? "development" : "production");

  await app.register(async (scope) => {
    // Pass any body through untouched: React Router reads it from the Fetch Request. The size limit
    // still holds: a declared length over it is refused here, a longer stream is cut by limitStream.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));

    scope.all("/*", async (request, reply) => {
      // A built asset that does not exist is a plain 404, not a page render.
      if (request.url.startsWith("/assets/")) throw new AppError("not_found");
      if (Number(request.headers["content-length"] ?? 0) > options.bodyLimit) throw new AppError("payload_too_large");
      const nonce = randomBytes(16).toString("base64");
      const build = await loadBuild();
      const entry = build.entry.module as unknown as EntryWithContext;
      const fetchRequest = toFetchRequest(request, reply, options.bodyLimit);
      if (!fetchRequest) throw new AppError("bad_request");
      const response = await handle(fetchRequest, entry.createLoadContext(options.services(request, nonce)));
      reply.status(response.status);
      for (const [name, value] of response.headers) {
        if (name === "set-cookie") continue;
        reply.header(name, value);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length) reply.header("set-cookie", cookies);
      if ((response.headers.get("content-type") ?? "").startsWith("text/html")) {
        reply.header("content-security-policy", documentCsp(nonce, options.mode === "development"));
      }
      return reply.send(response.body);
    });
  });
}

/**
 * A Host (or trusted X-Forwarded-Host) that is only a host name, IPv4 address or bracketed IPv6 literal
 * with an optional port. Anything else would become part of the page's URL: `x/pricing?` a path and
 * query of its own (React Router rendered /pricing for /pages/terms, its query past the input rule),
 * `a@b` credentials (which a Fetch Request refuses: 500). Issue #25.
 */
const PLAIN_HOST = /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The Fetch Request for React Router, or null when the request cannot be one (a malformed Host). The
 * URL is concatenated, not resolved: a path like `//other.example/x` must stay a path on this host.
 */
function toFetchRequest(request: FastifyRequest, reply: FastifyReply, bodyLimit: number): Request | null {
  if (!PLAIN_HOST.test(request.host)) return null;
  const path = `/${request.url.replace(/^\/+/, "")}`;
  let url: URL;
  try {
    // React Router routes on the path alone; the authority (checked by PLAIN_HOST above) only resolves
    // relative redirects back to the host the browser asked. Nothing stored or mailed is built from it.
    url = new URL(`${request.protocol}://${request.host}${path}`);
  } catch {
    return null;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  const controller = new AbortController();
  reply.raw.on("close", () => controller.abort());
  const body = request.body instanceof Readable ? limitStream(request.body, bodyLimit) : null;
  return new Request(url, {
    method: request.method,
    headers,
    signal: controller.signal,
    ...(body && request.method !== "GET" && request.method !== "HEAD" ? { body, duplex: "half" } : {}),
  } as RequestInit);
}

/** The body as a web stream that errors once more than `limit` bytes arrived. */
function limitStream(source: Readable, limit: number): ReadableStream<Uint8Array> {
  async function* counted() {
    let seen = 0;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > limit) throw new AppError("payload_too_large");
      yield chunk;
    }
  }
  return Readable.toWeb(Readable.from(counted())) as ReadableStream<Uint8Array>;
}

/** CSP of server-rendered pages: scripts only from this origin or with this response's nonce. */
export function documentCsp(nonce: string, development: boolean): string {
  // 'self' covers same-origin ws:/wss: (CSP 3); development adds Vite's HMR socket.
  const connect = development ? "'self' ws://localhost:24678 ws://127.0.0.1:24678" : "'self'";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    // The installable app's service worker and manifest (decision 026), from this origin only.
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}
