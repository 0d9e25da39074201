import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { type EncodedPhoto, PHOTO_ENCODING } from "../modules/photos/index.ts";

/**
 * The demo portraits' encoded files, kept between seeds (issue #29: the first start spent most of its
 * seeding in sharp, two mozjpeg encodes per photo, about 640 photos). A portrait is a pure function of
 * its SVG, and the photos module's encoding is named by PHOTO_ENCODING, so the files are cached under
 * the hash of both in `node_modules/.cache/amoria-portraits` (the usual place for tools' caches: gone
 * with `npm ci`, never in the data directory or in git). A later seed on an empty data directory (a
 * reset, every test run, the browser suite) reads them instead of encoding again; the first seed on a
 * new machine still encodes, in parallel with the database work (seed.ts). Any failure to read or
 * write the cache only means encoding again.
 */
export const PORTRAIT_CACHE_DIR = path.resolve("node_modules", ".cache", "amoria-portraits");

export async function cachedPortrait(
  svg: string,
  encode: (input: Buffer) => Promise<EncodedPhoto>,
  dir = PORTRAIT_CACHE_DIR,
): Promise<EncodedPhoto> {
  const key = createHash("sha256").update(PHOTO_ENCODING(true)).update("\0").update(svg).digest("hex");
  const file = path.join(dir, `${key}.bin`);
  try {
    return unpack(await readFile(file));
  } catch {
    // Not cached yet (or unreadable): encode.
  }
  const encoded = await encode(Buffer.from(svg));
  try {
    await mkdir(dir, { recursive: true });
    // Written aside and renamed, so that a seed stopped half-way never leaves half a file.
    const partial = `${file}.${process.pid}.tmp`;
    await writeFile(partial, pack(encoded));
    await rename(partial, file);
  } catch {
    // A read-only tree: no cache.
  }
  return encoded;
}

/** One file per portrait: width, height and the full file's length (uint32 each), then both files. */
function pack(photo: EncodedPhoto): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt32BE(photo.width, 0);
  head.writeUInt32BE(photo.height, 4);
  head.writeUInt32BE(photo.full.length, 8);
  return Buffer.concat([head, photo.full, photo.thumb]);
}

function unpack(bytes: Buffer): EncodedPhoto {
  const fullLength = bytes.readUInt32BE(8);
  const full = bytes.subarray(12, 12 + fullLength);
  const thumb = bytes.subarray(12 + fullLength);
  // A truncated or foreign file is not a portrait: encode again.
  if (full.length !== fullLength || thumb.length < 4 || full[0] !== 0xff || thumb[0] !== 0xff) throw new Error("bad cache file");
  return { width: bytes.readUInt32BE(0), height: bytes.readUInt32BE(4), full, thumb };
}
