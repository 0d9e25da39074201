import { constants } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/**
 * Types worth compressing on the fly: HTML, JSON, text, XML, scripts and SVG. Photos (JPEG/WebP, already
 * compressed) and other binary bodies, octet-stream included, are sent as they are.
 */
const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:[\w.-]+\+)?(?:json|xml)|[\w-]+\/(?:javascript|[\w.-]+\+xml)\b)/i;

/**
 * Compresses dynamic answers (server-rendered pages, JSON) with brotli or gzip, whichever the request
 * prefers (brotli on a tie). Answers under 1 KB stay as they are: the saving would not pay for the
 * headers and CPU. Built assets are compressed at build time and served as their `.br`/`.gz` siblings
 * by @fastify/static (ssr.ts); an answer that already has a Content-Encoding is left alone, and
 * WebSocket upgrades never reach this hook. Register before the routes: it attaches to routes added later.
 *
 * Pages are rendered in one pass (no Suspense boundaries stream later), so the compressor may buffer
 * until the document ends; a page that streams deferred content would want a flush per chunk.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    // Request bodies are taken as they come (our clients never compress them).
    globalDecompression: false,
    encodings: ["br", "gzip"],
    threshold: 1024,
    customTypes: COMPRESSIBLE,
    // Quality 4: close to gzip's speed with brotli's better ratio; 11 is for build-time assets only.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  } as Parameters<typeof compress>[1]);
}
