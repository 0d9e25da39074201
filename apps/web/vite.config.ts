import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { purgeUnusedCss } from "./css-purge.ts";
import { routerReloadsThroughRule } from "./router-reloads.ts";

/**
 * The browser build gets @formatjs/icu-messageformat-parser's `no-parser` entry: the same AST types
 * without the parser (about 50 KB minified). The root loader sends messages precompiled
 * (i18n/messages.server.ts), so react-intl never parses in the browser (decision 025). Every copy of
 * the package (react-intl has a nested one) is redirected to its own `no-parser.js`.
 */
function icuParserFreeClient(): Plugin {
  const id = "@formatjs/icu-messageformat-parser";
  return {
    name: "icu-parser-free-client",
    apply: "build",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (source !== id || this.environment.name !== "client") return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      return { ...resolved, id: resolved.id.replace(/index\.js$/, "no-parser.js") };
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [icuParserFreeClient(), routerReloadsThroughRule(), reactRouter()],
  css: {
    preprocessorOptions: {
      scss: { quietDeps: true, silenceDeprecations: ["import", "global-builtin", "color-functions", "if-function"] },
    },
    // Production builds ship only the Bootstrap rules the app uses (decision 014); development keeps all.
    postcss: { plugins: command === "build" ? [purgeUnusedCss(fileURLToPath(new URL(".", import.meta.url)))] : [] },
  },
  optimizeDeps: { include: ["react-bootstrap", "react-intl", "zod"] },
  // The server build runs on plain Node (decision 034), whose ES module loader refuses the directory
  // imports that react-bootstrap's deep entries (`react-bootstrap/NavbarCollapse`) and the helpers it
  // imports (`dom-helpers/css`, ...) are: bundled into the server build, they resolve.
  ssr: {
    noExternal: [
      "@app/contract",
      "react-bootstrap",
      "dom-helpers",
      "@restart/ui",
      "@restart/hooks",
      "react-transition-group",
      "uncontrollable",
    ],
  },
}));
