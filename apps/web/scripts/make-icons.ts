/**
 * Renders the installable app's PNG icons from the SVG favicon (decision 026), with sharp (the server's
 * image library). Run by hand after changing apps/web/public/favicon.svg, and commit the PNGs:
 *   npx tsx apps/web/scripts/make-icons.ts
 * - icon-192.png, icon-512.png: the favicon as it is (rounded rose square, transparent corners);
 * - icon-maskable-512.png: full-bleed rose, the heart within the central 80% safe zone, for launchers
 *   that crop icons into their own shape;
 * - apple-touch-icon.png (180): full-bleed too (iOS rounds it itself and fills transparency with black).
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

const publicDir = path.join(import.meta.dirname, "../public");
const THEME = "#c2255c";

/** The favicon's heart alone, scaled into a full-bleed square so that it keeps within `safe` of the side. */
function fullBleed(svg: string, safe: number): string {
  const heart = /<path[^>]*\/>/.exec(svg)?.[0];
  if (!heart) throw new Error("favicon.svg: no heart path");
  // The heart spans x 14..50, y ~18..50 of the 64 grid; scale it so it fills `safe` of the icon.
  const scale = safe / 0.7;
  const offset = 32 - 32 * scale;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${THEME}"/><g transform="translate(${offset} ${offset + 1.5 * scale}) scale(${scale})">${heart}</g></svg>`;
}

async function render(svg: string, size: number, file: string): Promise<void> {
  const png = await sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 64) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
  await writeFile(path.join(publicDir, file), png);
  console.log(`${file}: ${size}x${size}, ${png.length} bytes`);
}

const favicon = await readFile(path.join(publicDir, "favicon.svg"), "utf8");
await render(favicon, 192, "icons/icon-192.png");
await render(favicon, 512, "icons/icon-512.png");
// The safe zone of a maskable icon is the central circle of 80% diameter: the heart keeps to ~56%.
await render(fullBleed(favicon, 0.56), 512, "icons/icon-maskable-512.png");
await render(fullBleed(favicon, 0.7), 180, "apple-touch-icon.png");
