/**
 * Builds apps/web/app/features/landers/outlines.server.ts: one simplified SVG outline per served
 * country for the map lander (decision 024), from Natural Earth's 1:50m countries as the `world-atlas`
 * package ships them. The output is committed; the packages are needed only to rebuild it:
 *
 *   npm install --prefix /tmp/geo world-atlas@2.0.2 topojson-client@3.1.0
 *   npx tsx scripts/build-country-outlines.ts /tmp/geo/node_modules
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

type Ring = [number, number][];
const modules = process.argv[2];
if (!modules) throw new Error("usage: build-country-outlines.ts <node_modules with world-atlas and topojson-client>");
const require = createRequire(path.join(path.resolve(modules), "noop.js"));
const { feature } = require("topojson-client") as {
  feature: (
    topology: unknown,
    object: unknown,
  ) => { features: { id: string; geometry: { type: string; coordinates: unknown } }[] };
};
const topology = JSON.parse(readFileSync(require.resolve("world-atlas/countries-50m.json"), "utf8"));

/** ISO numeric code and the mainland window (lon/lat box) whose rings are kept: no far overseas territories. */
const COUNTRIES: Record<string, { id: string; box: [number, number, number, number] }> = {
  NL: { id: "528", box: [3, 50.7, 7.3, 53.7] },
  BE: { id: "056", box: [2.5, 49.4, 6.5, 51.6] },
  DE: { id: "276", box: [5.8, 47.2, 15.1, 55.1] },
  AT: { id: "040", box: [9.5, 46.3, 17.2, 49.1] },
  CH: { id: "756", box: [5.9, 45.8, 10.5, 47.9] },
  FR: { id: "250", box: [-5.2, 41.3, 9.6, 51.2] },
  IT: { id: "380", box: [6.6, 35.4, 18.6, 47.1] },
  ES: { id: "724", box: [-9.4, 35.9, 4.4, 43.9] },
  PL: { id: "616", box: [14, 49, 24.2, 55] },
  GB: { id: "826", box: [-8.7, 49.8, 1.8, 60.9] },
  IE: { id: "372", box: [-10.7, 51.3, -5.9, 55.5] },
  US: { id: "840", box: [-125, 24.4, -66.9, 49.5] },
  CA: { id: "124", box: [-141, 41.6, -52.6, 72] },
  AU: { id: "036", box: [112.9, -43.7, 153.7, -10.6] },
  NZ: { id: "554", box: [166, -47.4, 178.6, -34.3] },
};
const SIZE = 600;

function simplify(points: Ring, tolerance: number): Ring {
  if (points.length < 4) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop() as [number, number];
    const [ax, ay] = points[a] as [number, number];
    const [bx, by] = points[b] as [number, number];
    let worst = -1;
    let at = -1;
    for (let i = a + 1; i < b; i++) {
      const [px, py] = points[i] as [number, number];
      const len = Math.hypot(bx - ax, by - ay);
      // A closed ring's ends coincide: there the distance to that point counts.
      const d = len === 0 ? Math.hypot(px - ax, py - ay) : Math.abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / len;
      if (d > worst) [worst, at] = [d, i];
    }
    if (worst > tolerance) {
      keep[at] = 1;
      stack.push([a, at], [at, b]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

const area = (ring: Ring) =>
  Math.abs(
    ring.reduce((sum, [x, y], i) => {
      const [nx, ny] = ring[(i + 1) % ring.length] as [number, number];
      return sum + x * ny - nx * y;
    }, 0),
  ) / 2;

const features = feature(topology, topology.objects.countries).features;
const out: Record<string, { width: number; height: number; d: string; lon0: number; lat1: number; kx: number; scale: number }> =
  {};
for (const [code, { id, box }] of Object.entries(COUNTRIES)) {
  const found = features.find((f) => f.id === id);
  if (!found) throw new Error(`no ${code}`);
  const polygons = (found.geometry.type === "Polygon" ? [found.geometry.coordinates] : found.geometry.coordinates) as Ring[][];
  const inBox = ([lon, lat]: [number, number]) => lon >= box[0] && lon <= box[2] && lat >= box[1] && lat <= box[3];
  const rings = polygons
    .map((polygon) => polygon[0] as Ring)
    .filter((ring) => {
      const [lon, lat] = ring.reduce(([sx, sy], [x, y]) => [sx + x / ring.length, sy + y / ring.length], [0, 0]);
      return inBox([lon, lat]);
    });
  const lons = rings.flat().map(([lon]) => lon);
  const lats = rings.flat().map(([, lat]) => lat);
  const [lon0, lon1, lat0, lat1] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
  const kx = Math.cos((((lat0 + lat1) / 2) * Math.PI) / 180);
  const scale = SIZE / Math.max((lon1 - lon0) * kx, lat1 - lat0);
  const width = Math.ceil((lon1 - lon0) * kx * scale);
  const height = Math.ceil((lat1 - lat0) * scale);
  const d = rings
    .map((ring) => ring.map(([lon, lat]) => [(lon - lon0) * kx * scale, (lat1 - lat) * scale] as [number, number]))
    .filter((ring) => area(ring) > 6)
    .map((ring) => simplify(ring, 1.1).map(([x, y]) => [Math.round(x), Math.round(y)] as [number, number]))
    .filter((ring) => ring.length > 3)
    .map((ring) => `M${ring.map(([x, y]) => `${x} ${y}`).join("L")}Z`)
    .join("");
  out[code] = { width, height, d, lon0: +lon0.toFixed(4), lat1: +lat1.toFixed(4), kx: +kx.toFixed(6), scale: +scale.toFixed(4) };
}

const target = path.join(import.meta.dirname, "../apps/web/app/features/landers/outlines.server.ts");
writeFileSync(
  target,
  `/**
 * Generated by scripts/build-country-outlines.ts from Natural Earth 1:50m (public domain) via the
 * world-atlas package: each served country's mainland as one SVG path in a ${SIZE}-unit box, with the
 * equirectangular projection used (x = (lon - lon0) * kx * scale, y = (lat1 - lat) * scale). Server-only.
 */
export interface CountryOutline {
  width: number;
  height: number;
  d: string;
  lon0: number;
  lat1: number;
  kx: number;
  scale: number;
}

export const OUTLINES: Record<string, CountryOutline> = ${JSON.stringify(out, null, 2)};
`,
);
console.log(
  Object.entries(out)
    .map(([c, o]) => `${c} ${o.d.length}`)
    .join("\n"),
);
