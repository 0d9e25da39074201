/**
 * Compiles the server for production (issue #25, "Production build"; decision 034): one ES module,
 * apps/server/build/main.js, run by plain Node (`npm start`), with no TypeScript loader in the process,
 * apps/server/build/migrate.js (`npm run migrate`) and apps/server/build/staff-add.js (`npm run staff:add`).
 *
 * - esbuild bundles apps/server/src/main.ts and the contract package (@app/contract ships TypeScript
 *   sources, which Node does not load from a package); every other package stays an import resolved
 *   from node_modules at run time (native addons such as sharp and argon2 cannot be bundled, and
 *   `npm install` is the deployment's step anyway).
 * - The server finds its files relative to its own source (`new URL("./sw.js", import.meta.url)`:
 *   locale catalogues, migrations, the service worker, chat media, the web build). In one bundle every
 *   module would share the bundle's URL, so each module's `import.meta.url` is rewritten to its source
 *   file's URL computed from the bundle's own (`new URL("../src/modules/app/routes.ts",
 *   import.meta.url)`): those files keep being read where they are, and the checkout can move.
 *
 *   node apps/server/scripts/build.ts    (npm run build does it after the web build)
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const serverRoot = fileURLToPath(new URL("..", import.meta.url));
// Another directory as the first argument (the build's test compiles into a folder of its own).
const outdir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(serverRoot, "build");

/** Bundles the workspace's own packages, leaves every other bare import to Node at run time. */
const externalPackages: Plugin = {
  name: "external-packages",
  setup(on) {
    on.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path === "@app/contract" || args.path.startsWith("@app/contract/")) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Each source module keeps its own import.meta.url (its path relative to the bundle). */
const ownUrl: Plugin = {
  name: "own-import-meta-url",
  setup(on) {
    on.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      // Rewritten below only for import.meta.url: a module's dirname or filename would silently be the bundle's.
      if (/import\.meta\.(dirname|filename)/.test(source))
        throw new Error(`${args.path}: use new URL(..., import.meta.url), which the build keeps per module`);
      if (!source.includes("import.meta.url")) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join("/");
      return {
        contents: source.replaceAll("import.meta.url", `new URL(${JSON.stringify(relative)}, import.meta.url).href`),
        loader: "ts",
      };
    });
  },
};

const started = Date.now();
const result = await build({
  // The server, and `npm run migrate` (the deployment's migration step, docs/deploy.md).
  entryPoints: [
    path.join(serverRoot, "src/main.ts"),
    path.join(serverRoot, "src/migrate.ts"),
    path.join(serverRoot, "src/staff-add.ts"),
  ],
  outdir,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  // Stack traces name the sources with `node --enable-source-maps build/main.js`; the map is not loaded otherwise.
  sourcemap: "linked",
  // The bundle's own comments would only cost memory when parsed; the code stays readable (not minified).
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
  plugins: [externalPackages, ownUrl],
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(
  `server compiled to ${path.relative(path.join(serverRoot, "../.."), outdir)} in ${Date.now() - started} ms (${(bytes / 1024).toFixed(0)} KB with its map)`,
);
