/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) sibling next to every compressible
 * file of the client build, once at build time, so that the server sends them without compressing per
 * request (@fastify/static `preCompressed`). Files under 1 KB, and siblings that would not be smaller,
 * are skipped. Runs after `react-router build` (package.json); plain Node, no dependencies.
 */
import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|txt|xml|webmanifest|map)$/;
const MIN_BYTES = 1024;

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? files(full) : Promise.resolve([full]);
    }),
  );
  return nested.flat();
}

async function precompress(file: string): Promise<{ raw: number; br: number; gz: number }> {
  const raw = await readFile(file);
  const [br, gzipped] = await Promise.all([
    brotli(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    gz(raw, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  const written = { raw: raw.length, br: raw.length, gz: raw.length };
  if (br.length < raw.length) {
    await writeFile(`${file}.br`, br);
    written.br = br.length;
  }
  if (gzipped.length < raw.length) {
    await writeFile(`${file}.gz`, gzipped);
    written.gz = gzipped.length;
  }
  return written;
}

const root = path.resolve(import.meta.dirname, "../build/client");
if (!(await stat(root).catch(() => null))?.isDirectory()) {
  console.error(`precompress: ${root} is missing; run react-router build first`);
  process.exit(1);
}
const all = await files(root);
// Siblings from an earlier build of the same files are rewritten; stale ones go.
await Promise.all(all.filter((f) => /\.(?:br|gz)$/.test(f)).map((f) => rm(f)));
const targets: string[] = [];
for (const file of all) {
  if (!COMPRESSIBLE.test(file)) continue;
  if ((await stat(file)).size >= MIN_BYTES) targets.push(file);
}
const totals = { raw: 0, br: 0, gz: 0 };
for (const result of await Promise.all(targets.map(precompress))) {
  totals.raw += result.raw;
  totals.br += result.br;
  totals.gz += result.gz;
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
console.log(`precompressed ${targets.length} files: ${kb(totals.raw)} → brotli ${kb(totals.br)}, gzip ${kb(totals.gz)}`);
