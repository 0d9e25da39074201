/**
 * Issue #29: the members area's first screen stays within its JavaScript budget as features land.
 * Reads the production build (`npm test` builds first; run `npm run build -w apps/web` before running
 * this file alone) and gzips, at level 9 like the build's `.gz` siblings, every file the `/members`
 * page loads before it hydrates. `npm run bench:bundle` measures the same page in Chromium.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  firstLoadFiles,
  kb,
  MEMBERS_GOAL_GZIP_BYTES,
  MEMBERS_INLINE_ALLOWANCE_BYTES,
  parseRouteManifest,
  type RouteManifest,
} from "./bundle-report.ts";

const assets = fileURLToPath(new URL("../apps/web/build/client/assets", import.meta.url));
const manifestFile = existsSync(assets) ? readdirSync(assets).find((f) => /^manifest-[\w-]+\.js$/.test(f)) : undefined;

const fake: RouteManifest = {
  entry: { module: "/assets/entry.js", imports: ["/assets/react.js"] },
  routes: {
    root: { id: "root", module: "/assets/root.js", imports: ["/assets/react.js", "/assets/intl.js"] },
    layout: { id: "layout", parentId: "root", module: "/assets/layout.js", imports: ["/assets/nav.js"] },
    members: { id: "members", parentId: "layout", module: "/assets/members.js", imports: ["/assets/intl.js", "/assets/form.js"] },
    chats: { id: "chats", parentId: "root", module: "/assets/chats.js", imports: ["/assets/media.js"] },
  },
};

describe("first load of a route", () => {
  it("is the entry and every route module from the root down with their static imports, each once", () => {
    expect(firstLoadFiles(fake, "members")).toEqual([
      "/assets/entry.js",
      "/assets/react.js",
      "/assets/root.js",
      "/assets/intl.js",
      "/assets/layout.js",
      "/assets/nav.js",
      "/assets/members.js",
      "/assets/form.js",
    ]);
  });

  it("reads React Router's manifest script", () => {
    const source = `window.__reactRouterManifest=${JSON.stringify(fake)};`;
    expect(parseRouteManifest(source)).toEqual(fake);
  });

  it("names a route missing from the manifest", () => {
    expect(() => firstLoadFiles(fake, "nope")).toThrow(/no route nope/);
  });
});

describe.skipIf(!manifestFile)("the built members area", () => {
  it(`loads at most ${kb(MEMBERS_GOAL_GZIP_BYTES)} of gzipped JavaScript before /members hydrates`, () => {
    const manifest = parseRouteManifest(readFileSync(path.join(assets, manifestFile as string), "utf8"));
    const sizes = firstLoadFiles(manifest, "members").map((url) => ({
      url,
      gzip: gzipSync(readFileSync(path.join(assets, path.basename(url))), { level: 9 }).length,
    }));
    const total = sizes.reduce((sum, file) => sum + file.gzip, 0);
    const largest = sizes
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 8)
      .map((file) => `${kb(file.gzip)} ${path.basename(file.url)}`)
      .join(", ");
    expect(
      total + MEMBERS_INLINE_ALLOWANCE_BYTES,
      `/members first load: ${sizes.length} files, ${kb(total)} gzip + ${kb(MEMBERS_INLINE_ALLOWANCE_BYTES)} for the HTML's scripts; largest: ${largest}`,
    ).toBeLessThanOrEqual(MEMBERS_GOAL_GZIP_BYTES);
  });
});

/** The built files `files` import statically, transitively (minified: `from"./x.js"`, `import"./x.js"`), each once. */
function staticClosure(files: string[]): string[] {
  const seen = new Set<string>();
  const queue = files.map((file) => path.basename(file));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(path.join(assets, file), "utf8");
    for (const match of source.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) queue.push(match[1] as string);
  }
  return [...seen];
}

describe.skipIf(!manifestFile)("the members' first screen after hydration (decision 039)", () => {
  // What every member's page loads at once besides the route modules: the account alerts and the
  // time-bonus popup (lazy in the default layout), with the menus of the navigation in the first load.
  it("loads neither react-bootstrap's Dropdown and Popper (the menus) nor its Modal (the popups) until used", () => {
    const manifest = parseRouteManifest(readFileSync(path.join(assets, manifestFile as string), "utf8"));
    const lazyFirstScreen = readdirSync(assets).filter((f) => /^(account-alerts|time-bonus-modal)-[\w-]+\.js$/.test(f));
    expect(lazyFirstScreen).toHaveLength(2);
    const files = staticClosure([...firstLoadFiles(manifest, "members"), ...lazyFirstScreen]);
    expect(files.filter((file) => /^(Dropdown|Modal|popper|usePopper)[-.]/i.test(file))).toEqual([]);
  });

  // Third step: the first answers come with the page (badges, time bonus, regions), the socket's first
  // frames are checked by hand, so nothing of the first screen needs the contract's schemas. A static
  // import of the API client, an endpoint's module or a schema from these files brings them back.
  it("needs neither zod nor the contract's endpoint table", () => {
    const manifest = parseRouteManifest(readFileSync(path.join(assets, manifestFile as string), "utf8"));
    const lazyFirstScreen = readdirSync(assets).filter((f) => /^(account-alerts|time-bonus-modal)-[\w-]+\.js$/.test(f));
    const files = staticClosure([...firstLoadFiles(manifest, "members"), ...lazyFirstScreen]);
    const holding = (marker: string) => files.filter((file) => readFileSync(path.join(assets, file), "utf8").includes(marker));
    // zod's core error class and an endpoint's path (the table's): each in one chunk of the build.
    expect(
      readdirSync(assets).filter((f) => f.endsWith(".js") && readFileSync(path.join(assets, f), "utf8").includes(ZOD_MARKER)),
    ).not.toEqual([]);
    expect({ zod: holding(ZOD_MARKER), endpoints: holding(ENDPOINTS_MARKER) }).toEqual({ zod: [], endpoints: [] });
  });
});

const ZOD_MARKER = "$ZodError";
const ENDPOINTS_MARKER = "/api/badges.php";
